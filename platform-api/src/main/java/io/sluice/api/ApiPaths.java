package io.sluice.api;

import java.util.List;

/**
 * Which requests are machine endpoints, in one place: the filters that guard the API (key, size, control
 * characters, slow bodies, error shapes), the security chain and the console's page-only filters all ask here.
 * {@code /api/**} is the REST API and {@code /v1/**} the OpenAI-compatible front door (both take API keys);
 * {@code /actuator/**} joins them as a machine endpoint that is not a console page.
 */
public final class ApiPaths {

    /** The API-key endpoints as Spring path patterns (unmodifiable: every guard reads the same). */
    public static final List<String> API_PATTERNS = List.of("/api/**", "/v1/**");
    /** Every machine endpoint (the API-key endpoints and actuator) as Spring path patterns. */
    public static final List<String> MACHINE_PATTERNS = List.of("/api/**", "/v1/**", "/actuator/**");

    private ApiPaths() {
    }

    /** The OpenAI-compatible front door: errors there take OpenAI's shape. */
    public static boolean openAi(String path) {
        return under(path, "/v1");
    }

    /** An endpoint that takes an API key: the REST API or the front door. */
    public static boolean api(String path) {
        return under(path, "/api") || openAi(path);
    }

    /** An endpoint for machines, not a console page. */
    public static boolean machine(String path) {
        return api(path) || under(path, "/actuator");
    }

    /** {@code root} itself or anything below it, the way {@code root/**} matches. */
    private static boolean under(String path, String root) {
        return path != null && path.startsWith(root)
            && (path.length() == root.length() || path.charAt(root.length()) == '/');
    }
}
