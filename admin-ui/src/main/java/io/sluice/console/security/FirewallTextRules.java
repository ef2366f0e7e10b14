package io.sluice.console.security;

import java.util.function.Predicate;

import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Spring Security's firewall rules for header names, header values and parameter names, checked by a loop over the
 * text instead of the regular expressions StrictHttpFirewall uses by default ({@code [\p{IsAssigned}&&[^\p{IsControl}]]*},
 * and tab allowed in a header value). The rules are the same; the firewall checks every header a request reads, a
 * dozen per API call, and the regex matchers were about 2 % of a {@code /v1} call's CPU. Plain ASCII, nearly every
 * header, is decided without a lookup.
 */
final class FirewallTextRules {

    /** Every code point assigned in Unicode and none a control character (C0, DEL, C1). */
    static final Predicate<String> ASSIGNED_NOT_CONTROL = text -> allowed(text, false);

    /** The same, with tab allowed (header values may fold with it). */
    static final Predicate<String> HEADER_VALUE = text -> allowed(text, true);

    private FirewallTextRules() {
    }

    /** The default strict firewall with these rules in place of its regular expressions. */
    static StrictHttpFirewall strictFirewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderNames(ASSIGNED_NOT_CONTROL);
        firewall.setAllowedHeaderValues(HEADER_VALUE);
        firewall.setAllowedParameterNames(ASSIGNED_NOT_CONTROL);
        return firewall;
    }

    private static boolean allowed(String text, boolean tab) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7F) {
                continue; // printable ASCII: assigned, no control
            }
            if (c == '\t') {
                if (!tab) {
                    return false;
                }
                continue;
            }
            return slowPath(text, i, tab);
        }
        return true;
    }

    /** From the first non-ASCII or control character on, by code point as the regular expression reads them. */
    private static boolean slowPath(String text, int from, boolean tab) {
        for (int i = from; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            int type = Character.getType(codePoint);
            if (type == Character.UNASSIGNED || (type == Character.CONTROL && !(tab && codePoint == '\t'))) {
                return false;
            }
            i += Character.charCount(codePoint);
        }
        return true;
    }
}
