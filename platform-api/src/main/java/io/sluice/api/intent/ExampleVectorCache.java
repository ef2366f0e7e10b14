package io.sluice.api.intent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The intent examples' vectors kept on local disk between starts: embedding ~500 examples was the longest
 * single step of a start (2–3 s idle, 30 s under load), and the same model gives the same vectors for the same
 * texts. One file per (model id, example texts): the name is a SHA-256 of both, so a changed model or example
 * file finds no file and embeds again. A file that cannot be read or does not match is ignored (embed again).
 */
final class ExampleVectorCache {

    private static final Logger log = LoggerFactory.getLogger(ExampleVectorCache.class);
    private static final int MAGIC = 0x534b4e31;   // "SKN1"

    private final Path file;
    private final int count;

    ExampleVectorCache(Path dir, String modelId, List<String> texts) {
        this.file = dir.resolve("intent-knn-" + digest(modelId, texts) + ".vec");
        this.count = texts.size();
    }

    Path file() {
        return file;
    }

    /** The cached vectors, or empty when there is no matching file. */
    Optional<List<float[]>> load() {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
            if (in.remaining() < 12 || in.getInt() != MAGIC || in.getInt() != count) {
                return Optional.empty();
            }
            int dims = in.getInt();
            if (dims <= 0 || in.remaining() != (long) count * dims * Float.BYTES) {
                return Optional.empty();
            }
            List<float[]> vectors = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                float[] v = new float[dims];
                in.asFloatBuffer().get(v);
                in.position(in.position() + dims * Float.BYTES);
                vectors.add(v);
            }
            return Optional.of(vectors);
        } catch (IOException | RuntimeException e) {
            log.warn("intent kNN: cached vectors {} unreadable ({}), embedding again", file, e.toString());
            return Optional.empty();
        }
    }

    /** Writes the vectors (atomically: a crash mid-write leaves no half file); failures are only logged. */
    void store(List<float[]> vectors) {
        if (vectors.size() != count || vectors.isEmpty()) {
            return;
        }
        int dims = vectors.get(0).length;
        ByteBuffer out = ByteBuffer.allocate(12 + count * dims * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(MAGIC).putInt(count).putInt(dims);
        for (float[] v : vectors) {
            if (v.length != dims) {
                return;
            }
            for (float x : v) {
                out.putFloat(x);
            }
        }
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), "intent-knn", ".tmp");
            Files.write(tmp, out.array());
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | RuntimeException e) {
            log.warn("intent kNN: cannot keep the example vectors in {} ({})", file, e.toString());
        }
    }

    private static String digest(String modelId, List<String> texts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(modelId.getBytes(StandardCharsets.UTF_8));
            for (String text : texts) {
                sha.update((byte) 0);
                sha.update(text.getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
