package io.sluice.app.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** Bodies for {@code /api/v1/chat} and reading its answers, shared by the end-to-end chat tests. */
public final class ChatRequests {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ChatRequests() {
    }

    /** A message from a user never seen before: no session, no bucket, no memory carried over. */
    public static String chat(String message) {
        return chat(message, false);
    }

    /** As {@link #chat(String)}; {@code acceptDeferred}: the client takes a ticket when the level defers. */
    public static String chat(String message, boolean acceptDeferred) {
        return "{\"userId\":\"u-" + UUID.randomUUID() + "\",\"message\":\"" + message + "\""
            + (acceptDeferred ? ",\"acceptDeferred\":true" : "") + "}";
    }

    /** The answer's JSON, after asserting it is a 200 (the body is the message when it is not). */
    public static JsonNode ok(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
