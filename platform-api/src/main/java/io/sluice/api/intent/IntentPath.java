package io.sluice.api.intent;

import java.util.Locale;

/** Where a message came in; enhancers may be enabled for some paths only (the LLM: plain chat by default). */
public enum IntentPath {
    /** {@code POST /api/v1/chat} (and feedback re-asks). */
    CHAT,
    /** {@code POST /api/v1/chat/stream}: latency to the first token matters most. */
    STREAM,
    /** {@code /v1/chat/completions}, the OpenAI-compatible front door. */
    OPENAI;

    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
