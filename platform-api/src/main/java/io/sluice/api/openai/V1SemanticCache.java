package io.sluice.api.openai;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.cache.RedisSemanticCache;
import io.sluice.api.chat.SemanticCache;
import io.sluice.governance.gateway.LlmMessage;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.function.SingletonSupplier;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The semantic cache on /v1, for keys whose policy turns it on: only a single standalone user turn (system
 * messages allowed, no assistant or tool turn, no tools, one choice, not streamed) is looked up or stored,
 * through the chat's cache (L1 exact, L2 accepted by the same verifier). Everything of the request but the
 * user's text — system messages, parameters — is part of the key space, so a different prompt or temperature
 * never gets another's answer. {@code sluice.gateway.v1.cache{result}}: hit, miss, stored, skipped_*.
 */
final class V1SemanticCache {

    static final String HEADER = "X-Sluice-Cache";

    /** Fields that say nothing about the answer (who asks, how it is delivered). */
    private static final Set<String> NOT_CONTEXT = Set.of("messages", "model", "user", "metadata", "stream",
        "stream_options", "store");

    /** Where one cacheable request is looked up and stored. */
    record Key(String space, String question) {
    }

    private final Supplier<RedisSemanticCache> cache;
    private final ObjectMapper json;
    private final MeterRegistry meters;

    V1SemanticCache(ObjectProvider<RedisSemanticCache> cache, ObjectMapper json, MeterRegistry meters) {
        this.cache = SingletonSupplier.of(cache::getIfAvailable); // resolved once it exists, not per call
        this.json = json;
        this.meters = meters;
    }

    /** The request's key, or null when it may not be cached (the reason is counted). */
    Key key(long clientId, String route, JsonNode body, List<LlmMessage> messages) {
        if (cache.get() == null) {
            return null;
        }
        String refusal = refusal(body, messages);
        if (refusal != null) {
            count("skipped_" + refusal);
            return null;
        }
        StringBuilder context = new StringBuilder();
        String question = null;
        for (LlmMessage m : messages) {
            if (m.role() == LlmMessage.Role.SYSTEM) {
                context.append("system:").append(m.content()).append('\n');
            } else {
                question = m.content();
            }
        }
        Map<String, JsonNode> parameters = new TreeMap<>(); // sorted: the same parameters, the same space
        for (Map.Entry<String, JsonNode> e : body.properties()) {
            if (!NOT_CONTEXT.contains(e.getKey()) && !e.getValue().isNull()) {
                parameters.put(e.getKey(), e.getValue());
            }
        }
        context.append(json.writeValueAsString(parameters));
        return new Key(cache.get().v1Space(clientId, route, context.toString()), question);
    }

    private static String refusal(JsonNode body, List<LlmMessage> messages) {
        if (body.path("stream").asBoolean(false)) {
            return "stream";
        }
        if (body.has("tools") || body.has("tool_choice") || body.has("functions")) {
            return "tools";
        }
        if (body.path("n").asInt(1) != 1) {
            return "n";
        }
        long users = messages.stream().filter(m -> m.role() == LlmMessage.Role.USER).count();
        boolean others = messages.stream().anyMatch(m -> m.role() != LlmMessage.Role.USER && m.role() != LlmMessage.Role.SYSTEM);
        return users != 1 || others ? "multi_turn" : null;
    }

    Optional<SemanticCache.Hit> lookup(Key key, String level, double threshold) {
        Optional<SemanticCache.Hit> hit = cache.get().lookup(key.space(), key.question(), level, threshold);
        count(hit.isPresent() ? "hit" : "miss");
        return hit;
    }

    void store(Key key, String answer) {
        cache.get().store(key.space(), key.question(), answer);
        count("stored");
    }

    private void count(String result) {
        meters.counter("sluice.gateway.v1.cache", "result", result).increment();
    }
}
