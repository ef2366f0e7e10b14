package io.sluice.console.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/** The loops decide exactly what Spring Security's own regular-expression rules decide. */
class FirewallTextRulesTest {

    @Test
    void theyAgreeWithSpringSecuritysRulesOnHandPickedText() {
        List<String> texts = List.of("", "application/json", "Bearer sk-abc.DEF_123", "text/plain;\tq=0.9", "a\u0000b",
            "\u007F", "caf\u00E9", "\u0085", "\u4F60\u597D", "\uD83D\uDE00", "\uD83D", "\uDE00x", "\u0378", "line\nbreak",
            "tab\tonly", "\u2028", "\uFFFF", "\u00A0nbsp");
        for (String text : texts) {
            assertSame(text);
        }
    }

    @Test
    void theyAgreeWithSpringSecuritysRulesOnRandomText() {
        SplittableRandom random = new SplittableRandom(20261206);
        List<String> disagreements = new ArrayList<>();
        for (int n = 0; n < 20_000; n++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(12);
            for (int i = 0; i < length; i++) {
                int kind = random.nextInt(4);
                int codePoint = switch (kind) {
                    case 0 -> random.nextInt(0x20, 0x7F);      // printable ASCII
                    case 1 -> random.nextInt(0, 0xA0);         // ASCII and C1 controls
                    case 2 -> random.nextInt(0, 0x10000);      // anything in the BMP, surrogate halves included
                    default -> random.nextInt(0, 0x110000);    // any code point, unassigned ones included
                };
                text.appendCodePoint(codePoint);
            }
            String s = text.toString();
            if (FirewallTextRules.ASSIGNED_NOT_CONTROL.test(s) != StrictHttpFirewall.ALLOWED_HEADER_NAMES.test(s)
                    || FirewallTextRules.HEADER_VALUE.test(s) != StrictHttpFirewall.ALLOWED_HEADER_VALUES.test(s)) {
                disagreements.add(s.codePoints().mapToObj(Integer::toHexString).toList().toString());
            }
        }
        assertThat(disagreements).isEmpty();
    }

    @Test
    void theFirewallUsesThem() {
        StrictHttpFirewall firewall = FirewallTextRules.strictFirewall();
        var request = new org.springframework.mock.web.MockHttpServletRequest("GET", "/v1/models");
        request.addHeader("X-Bad", "a\u0007b");
        request.addHeader("X-Good", "caf\u00E9\tok");
        var firewalled = firewall.getFirewalledRequest(request);

        assertThat(firewalled.getHeader("X-Good")).isEqualTo("caf\u00E9\tok");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> firewalled.getHeader("X-Bad"))
            .isInstanceOf(org.springframework.security.web.firewall.RequestRejectedException.class);
    }

    private static void assertSame(String text) {
        assertThat(FirewallTextRules.ASSIGNED_NOT_CONTROL.test(text)).as("name %s", text)
            .isEqualTo(StrictHttpFirewall.ALLOWED_HEADER_NAMES.test(text));
        assertThat(FirewallTextRules.HEADER_VALUE.test(text)).as("value %s", text)
            .isEqualTo(StrictHttpFirewall.ALLOWED_HEADER_VALUES.test(text));
    }
}
