package io.sluice.api.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** Which control characters in a JSON text the API refuses, escaped or raw (the text is read as UTF-8 bytes). */
class ControlCharacterFilterTest {

    @Test
    void escapedNulAndOtherControlsAreFoundAndEscapedBackslashesAreNot() {
        assertThat(forbidden("{\"message\":\"hi\\u0000there\"}")).isZero();
        assertThat(forbidden("{\"message\":\"bell\\u0007\"}")).isEqualTo(7);
        assertThat(forbidden("{\"message\":\"c1 \\u009F escaped\"}")).isEqualTo(0x9f);
        assertThat(forbidden("{\"message\":\"a literal \\\\u0000 is text\"}")).isEqualTo(-1);
        assertThat(forbidden("{\"message\":\"line\\nbreak\\ttab\\u000a\"}")).isEqualTo(-1);
    }

    @Test
    void rawDelAndC1ControlsAreFoundInTheirUtf8Form() {
        assertThat(forbidden("{\"message\":\"c1\u0085\"}")).isEqualTo(0x85);
        assertThat(forbidden("{\"message\":\"del\u007f\"}")).isEqualTo(0x7f);
        assertThat(forbidden("{\"message\":\"\u00c2 then \u0080\"}")).isEqualTo(0x80);
    }

    @Test
    void multiByteTextWhoseContinuationBytesLookLikeC1IsAllowed() {
        // 退 is E9 80 80, à is C3 A0, Ÿ is C5 B8: continuation bytes in 0x80-0x9F, never after a C2 lead byte
        assertThat(forbidden("{\"message\":\"退款多久到账\"}")).isEqualTo(-1);
        assertThat(forbidden("{\"message\":\"voilà, Ÿ, \u00c2\u00a0and emoji \ud83d\ude00\"}")).isEqualTo(-1);
        assertThat(forbidden("{\"message\":\"\\u00e9t\\u00E9\"}")).isEqualTo(-1);
    }

    @Test
    void anEscapeThatIsNotHexIsLeftToTheParser() {
        assertThat(forbidden("{\"message\":\"\\u+07F\"}")).isEqualTo(-1);
        assertThat(forbidden("{\"message\":\"\\u00\"}")).isEqualTo(-1);
    }

    private static int forbidden(String json) {
        return ControlCharacterFilter.forbiddenInJson(json.getBytes(StandardCharsets.UTF_8));
    }
}
