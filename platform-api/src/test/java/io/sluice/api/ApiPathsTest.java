package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPatternParser;

class ApiPathsTest {

    @Test
    void theFrontDoorIsV1AndEverythingBelowItButNotAPathThatOnlyStartsTheSame() {
        assertThat(ApiPaths.openAi("/v1")).isTrue();
        assertThat(ApiPaths.openAi("/v1/chat/completions")).isTrue();
        assertThat(ApiPaths.openAi("/v10/chat")).isFalse();
        assertThat(ApiPaths.openAi("/api/v1/chat")).isFalse();
        assertThat(ApiPaths.openAi(null)).isFalse();
    }

    @Test
    void apiKeyEndpointsAreTheRestApiAndTheFrontDoorMachineEndpointsAddActuator() {
        assertThat(ApiPaths.api("/api/v1/chat")).isTrue();
        assertThat(ApiPaths.api("/v1/models")).isTrue();
        assertThat(ApiPaths.api("/apidocs")).isFalse();
        assertThat(ApiPaths.api("/actuator/health")).isFalse();
        assertThat(ApiPaths.machine("/actuator/health")).isTrue();
        assertThat(ApiPaths.machine("/console/gateway")).isFalse();
        assertThat(ApiPaths.machine("/")).isFalse();
    }

    @Test
    void thePatternsMatchWhatThePredicatesSay() {
        var parser = PathPatternParser.defaultInstance;
        for (String path : new String[] {"/v1", "/v1/chat/completions", "/v10", "/api", "/api/v1/chat", "/apidocs",
                "/actuator", "/actuator/health", "/console", "/"}) {
            boolean api = false;
            for (String pattern : ApiPaths.API_PATTERNS) {
                api |= parser.parse(pattern).matches(PathContainer.parsePath(path));
            }
            boolean machine = false;
            for (String pattern : ApiPaths.MACHINE_PATTERNS) {
                machine |= parser.parse(pattern).matches(PathContainer.parsePath(path));
            }
            assertThat(api).as("API pattern for %s", path).isEqualTo(ApiPaths.api(path));
            assertThat(machine).as("machine pattern for %s", path).isEqualTo(ApiPaths.machine(path));
        }
    }
}
