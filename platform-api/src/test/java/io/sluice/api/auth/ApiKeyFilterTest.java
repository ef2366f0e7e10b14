package io.sluice.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

class ApiKeyFilterTest {

    static MockHttpServletRequest request(String header, String value) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/chat");
        if (header != null) {
            request.addHeader(header, value);
        }
        return request;
    }

    @Test
    void takesTheKeyFromABearerTokenOrXApiKey() {
        assertThat(ApiKeyFilter.presentedKey(request("Authorization", "Bearer sk-sluice-abc"))).isEqualTo("sk-sluice-abc");
        assertThat(ApiKeyFilter.presentedKey(request("Authorization", "bearer  sk-sluice-abc "))).isEqualTo("sk-sluice-abc");
        assertThat(ApiKeyFilter.presentedKey(request("X-API-Key", "sk-sluice-xyz"))).isEqualTo("sk-sluice-xyz");
    }

    @Test
    void noUsableKeyIsNoKey() {
        assertThat(ApiKeyFilter.presentedKey(request(null, null))).isNull();
        assertThat(ApiKeyFilter.presentedKey(request("Authorization", "Bearer "))).isNull();
        assertThat(ApiKeyFilter.presentedKey(request("Authorization", "Basic dXNlcjpwYXNz"))).isNull();
        assertThat(ApiKeyFilter.presentedKey(request("X-API-Key", "  "))).isNull();
    }

    @Test
    void onlyApiPathsAreGuarded() {
        ApiKeyFilter filter = new ApiKeyFilter(null, null);
        assertThat(filter.shouldNotFilter(new MockHttpServletRequest("GET", "/actuator/health"))).isTrue();
        assertThat(filter.shouldNotFilter(new MockHttpServletRequest("GET", "/console"))).isTrue();
        assertThat(filter.shouldNotFilter(new MockHttpServletRequest("POST", "/api/v1/chat"))).isFalse();
        assertThat(filter.shouldNotFilter(new MockHttpServletRequest("POST", "/v1/chat/completions"))).isFalse();
    }

    @Test
    void keysAreHashedWithSha256() {
        assertThat(ApiKeys.sha256("abc"))
            .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
