package io.sluice.governance.gateway;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * What a gateway call is for, set by each caller. The token allocation ({@code sluice.gateway.allocation})
 * counts the window's tokens per type, keeps a part of what is left for short interactive types when one
 * type takes more than its share, and labels the {@code sluice.gateway.allocation.*} metrics.
 */
public enum RequestType {
    /** An online chat answer (F4, F3, F2 polish). */
    CHAT_ANSWER,
    /** LLM-enhanced intent classification. */
    INTENT,
    /** A call through the OpenAI-compatible front door /v1. */
    FRONT_DOOR,
    /** A queued summary (conversation or document). */
    SUMMARY,
    /** A queued (F0) answer made later. */
    DEFERRED_ANSWER,
    /** Semantic-cache warm-up or rebuild. */
    CACHE_WARMUP,
    /** Embeddings on the embedding lane. */
    EMBEDDING,
    /** Anything a caller did not name. */
    OTHER;

    /** The name in configuration, metrics and the console ({@code chat_answer}, {@code summary}, ...). */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<RequestType> fromKey(String key) {
        String wanted = key == null ? "" : key.strip().replace('-', '_').toUpperCase(Locale.ROOT);
        return Arrays.stream(values()).filter(t -> t.name().equals(wanted)).findFirst();
    }

    /** The type a request gets when its caller names none: what its lane usually carries. */
    public static RequestType defaultFor(Lane lane) {
        return switch (lane) {
            case INTERACTIVE -> CHAT_ANSWER;
            case INTENT -> INTENT;
            case BATCH -> OTHER;
        };
    }
}
