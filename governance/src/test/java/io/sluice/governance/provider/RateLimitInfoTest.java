package io.sluice.governance.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class RateLimitInfoTest {

    @ParameterizedTest(name = "{0} = {1} ms")
    @CsvSource({"1s,1000", "20ms,20", "6m0s,360000", "1h2m3.5s,3723500", "0.5s,500", "2,2000"})
    void readsOpenAiResetDurations(String header, long millis) {
        assertThat(RateLimitInfo.duration(header)).isEqualTo(Duration.ofMillis(millis));
    }

    @Test
    void unreadableValuesAreAbsentNotErrors() {
        assertThat(RateLimitInfo.duration("soon")).isNull();
        assertThat(RateLimitInfo.number("many")).isNull();
        assertThat(RateLimitInfo.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT")).isNull();
    }

    @Test
    void readsTheHeadersAProviderSends() {
        Map<String, String> headers = Map.of("retry-after", "2", "x-ratelimit-remaining-tokens", "0",
            "x-ratelimit-reset-tokens", "2s", "x-ratelimit-remaining-requests", "0", "x-ratelimit-limit-tokens", "20000");

        RateLimitInfo info = RateLimitInfo.from(headers::get);

        assertThat(info.retryAfter()).isEqualTo(Duration.ofSeconds(2));
        assertThat(info.remainingTokens()).isZero();
        assertThat(info.resetTokens()).isEqualTo(Duration.ofSeconds(2));
        assertThat(info.limitTokens()).isEqualTo(20000);
    }
}
