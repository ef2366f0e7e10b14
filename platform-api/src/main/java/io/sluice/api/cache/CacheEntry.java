package io.sluice.api.cache;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;

import io.sluice.api.chat.ChatResponse;

/**
 * One cached answer as stored in Redis (JSON). The question's vector travels with it (base64 of
 * little-endian floats) so every instance's local mirror can scan it. {@code intent}: the intent the
 * question was classified with (null for warmed or older entries), for the pair model's intent agreement.
 * {@code shortAnswer}: the answer's short form when it is long (first sentences), served at levels that ask
 * for it; null for short answers and older entries. {@code intentCode} and {@code priority}: the question's
 * classification as an exact hit reports it (null for warmed or older entries: such a hit classifies its request).
 */
public record CacheEntry(String id, String question, String normalized, String answer, String tier,
        List<ChatResponse.Source> sources, List<String> sourceIds, String vector, long createdAt, long expiresAt,
        String intent, String shortAnswer, String intentCode, String priority) {

    public CacheEntry(String id, String question, String normalized, String answer, String tier,
            List<ChatResponse.Source> sources, List<String> sourceIds, String vector, long createdAt, long expiresAt,
            String intent, String shortAnswer) {
        this(id, question, normalized, answer, tier, sources, sourceIds, vector, createdAt, expiresAt, intent, shortAnswer,
            null, null);
    }

    /** The same entry without its vector (what an instance keeps of an exact hit). */
    CacheEntry withoutVector() {
        return new CacheEntry(id, question, normalized, answer, tier, sources, sourceIds, null, createdAt, expiresAt, intent,
            shortAnswer, intentCode, priority);
    }

    public CacheEntry(String id, String question, String normalized, String answer, String tier,
            List<ChatResponse.Source> sources, List<String> sourceIds, String vector, long createdAt, long expiresAt,
            String intent) {
        this(id, question, normalized, answer, tier, sources, sourceIds, vector, createdAt, expiresAt, intent, null);
    }

    static String encode(float[] vector) {
        ByteBuffer buffer = ByteBuffer.allocate(vector.length * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (float f : vector) {
            buffer.putFloat(f);
        }
        return Base64.getEncoder().encodeToString(buffer.array());
    }

    float[] decodeVector() {
        if (vector == null || vector.isEmpty()) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.wrap(Base64.getDecoder().decode(vector)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[buffer.remaining() / 4];
        for (int i = 0; i < out.length; i++) {
            out[i] = buffer.getFloat();
        }
        return out;
    }
}
