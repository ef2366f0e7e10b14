package io.sluice.api.cache;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;

import io.sluice.api.chat.ChatResponse;

/**
 * One cached answer as stored in Redis (JSON). The question's vector travels with it (base64 of
 * little-endian floats) so every instance's local mirror can scan it. {@code intent}: the intent the
 * question was classified with (null for warmed or older entries), for the pair model's intent agreement.
 */
public record CacheEntry(String id, String question, String normalized, String answer, String tier,
        List<ChatResponse.Source> sources, List<String> sourceIds, String vector, long createdAt, long expiresAt,
        String intent) {

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
