package io.sluice.api.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which control characters in a JSON text the API refuses, escaped or raw. */
class ControlCharacterFilterTest {

    @Test
    void escapedNulAndOtherControlsAreFoundAndEscapedBackslashesAreNot() {
        assertThat(ControlCharacterFilter.forbiddenInJson("{\"message\":\"hi\\u0000there\"}")).isZero();
        assertThat(ControlCharacterFilter.forbiddenInJson("{\"message\":\"bell\\u0007\"}")).isEqualTo(7);
        assertThat(ControlCharacterFilter.forbiddenInJson("{\"message\":\"c1\u0085\"}")).isEqualTo(0x85);
        assertThat(ControlCharacterFilter.forbiddenInJson("{\"message\":\"a literal \\\\u0000 is text\"}")).isEqualTo(-1);
        assertThat(ControlCharacterFilter.forbiddenInJson("{\"message\":\"line\\nbreak\\ttab\\u000a\"}")).isEqualTo(-1);
        assertThat(ControlCharacterFilter.forbiddenInJson("{\"message\":\"退款多久到账\"}")).isEqualTo(-1);
    }
}
