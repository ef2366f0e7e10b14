package io.sluice.app.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ApiScope;
import io.sluice.api.auth.ClientTier;
import io.sluice.app.support.Http;
import io.sluice.app.support.TestServices;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The security regression suite of issue 14: one test per finding of the probe of 769aaaa, each run
 * against the real application (PostgreSQL, Redis, Lucene, Tomcat on loopback), acting as the attacker
 * did. The classes extending this share one application context; the operator's key is bootstrapped
 * once, every other client is created through {@code POST /api/v1/clients} with it, as an operator would.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class SecuritySuite {

    static final String RUN = "security-" + UUID.randomUUID().toString().substring(0, 8);
    static final JsonMapper JSON = JsonMapper.shared();

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, RUN);
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    ApiKeys apiKeys;

    @Autowired
    JdbcClient jdbc;

    private static String operatorKey;

    /** The operator's key (scope admin), bootstrapped once per suite run as the console would issue it. */
    Http operator() {
        synchronized (SecuritySuite.class) {
            if (operatorKey == null) {
                operatorKey = apiKeys.create("operator-" + RUN, ClientTier.STANDARD, EnumSet.of(ApiScope.ADMIN)).key();
            }
        }
        return new Http(port, operatorKey);
    }

    /** A new client created through the API by the operator, with these scopes. */
    Client client(String name, String... scopes) {
        HttpResponse<String> created = operator().postJson("/api/v1/clients", JSON.writeValueAsString(
            java.util.Map.of("name", name + "-" + UUID.randomUUID().toString().substring(0, 6), "tier", "STANDARD",
                "scopes", List.of(scopes))));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode body = JSON.readTree(created.body());
        return new Client(body.get("id").asLong(), new Http(port, body.get("key").asString()));
    }

    record Client(long id, Http http) {
    }

    static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    static void assertProblem(HttpResponse<String> response, int status, String type) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(json(response).path("type").asString("")).as(response.body())
            .isEqualTo("https://sluice.dev/problems/" + type);
    }

    static String chat(String user, String message) {
        return JSON.writeValueAsString(java.util.Map.of("userId", user, "message", message));
    }
}
