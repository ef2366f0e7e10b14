package io.sluice.governance.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import com.sun.net.httpserver.HttpServer;

import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider pools' clean-up is never woken by a call, yet still runs: a connection is kept for the next call
 * and closed once it has been idle past the keep-alive.
 */
class LazyPoolCleanupTest {

    private HttpServer server;
    private final LazyPoolCleanup cleanup = new LazyPoolCleanup();

    @BeforeEach
    void startAKeepAliveServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        cleanup.shutdown();
    }

    @Test
    void anIdleConnectionIsKeptForTheNextCallThenClosedPastItsKeepAlive() throws IOException {
        ConnectionPool pool = cleanup.newPool(8, Duration.ofMillis(300));
        OkHttpClient client = new OkHttpClient.Builder().connectionPool(pool).build();
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/";

        for (int i = 0; i < 3; i++) {
            try (Response response = client.newCall(new Request.Builder().url(url).build()).execute()) {
                assertThat(response.body().string()).isEqualTo("{}");
            }
        }

        assertThat(pool.connectionCount()).as("three calls in a row shared one kept-alive connection").isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
            assertThat(pool.connectionCount()).as("closed once idle past the keep-alive").isZero());
    }
}
