package io.sluice.governance.provider;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a provider said about its limits in {@code Retry-After} and {@code x-ratelimit-*} headers.
 * Any field may be null (not sent).
 */
public record RateLimitInfo(Long limitTokens, Long remainingTokens, Duration resetTokens, Long remainingRequests,
        Duration resetRequests, Duration retryAfter) {

    public static final RateLimitInfo NONE = new RateLimitInfo(null, null, null, null, null, null);

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    /** Reads the headers through a case-insensitive lookup (null when absent). */
    public static RateLimitInfo from(Function<String, String> header) {
        return new RateLimitInfo(number(header.apply("x-ratelimit-limit-tokens")),
            number(header.apply("x-ratelimit-remaining-tokens")), duration(header.apply("x-ratelimit-reset-tokens")),
            number(header.apply("x-ratelimit-remaining-requests")), duration(header.apply("x-ratelimit-reset-requests")),
            retryAfter(header.apply("retry-after")));
    }

    public boolean isEmpty() {
        return equals(NONE);
    }

    static Long number(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** {@code Retry-After}: delay seconds (HTTP dates are not used by LLM providers and are ignored). */
    static Duration retryAfter(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Duration.ofMillis(Math.round(Double.parseDouble(value.trim()) * 1000));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** OpenAI-style reset durations: {@code 1s}, {@code 6m0s}, {@code 20ms}, {@code 1h2m3.5s}; a bare number is seconds. */
    static Duration duration(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.matches("\\d+(\\.\\d+)?")) {
            return Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000));
        }
        Matcher m = PART.matcher(v);
        double millis = 0;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) {
                return null;
            }
            double amount = Double.parseDouble(m.group(1));
            millis += switch (m.group(2)) {
                case "ms" -> amount;
                case "s" -> amount * 1_000;
                case "m" -> amount * 60_000;
                default -> amount * 3_600_000;
            };
            end = m.end();
        }
        return end == v.length() && end > 0 ? Duration.ofMillis(Math.round(millis)) : null;
    }
}
