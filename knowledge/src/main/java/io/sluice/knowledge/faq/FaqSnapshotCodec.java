package io.sluice.knowledge.faq;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Binary form of a snapshot: magic, header, entries with their vectors, then the SHA-256 of
 * everything before it. A truncated or altered file fails to load instead of serving wrong answers.
 *
 * <p>Versions: {@code SLFAQ1} (main-model vectors only) is still read; {@code SLFAQ2}, written now, adds
 * the English model's id and dimension to the header and, per text, a flag byte followed by its English
 * vector when it has one (Latin-script texts).
 */
final class FaqSnapshotCodec {

    private static final byte[] MAGIC_V1 = "SLFAQ1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MAGIC = "SLFAQ2".getBytes(StandardCharsets.US_ASCII);
    private static final long NONE = Long.MIN_VALUE;

    private FaqSnapshotCodec() {
    }

    /** Builds the snapshot object with its checksum computed over the serialized body. */
    static FaqSnapshot create(long version, Instant createdAt, String modelId, int dimension, List<FaqEntry> entries,
            List<float[]> vectors) {
        return create(version, createdAt, modelId, dimension, entries, vectors, null, 0, null);
    }

    /** Same, with the English model's vectors (one per text, null for non-Latin texts; the list may be null). */
    static FaqSnapshot create(long version, Instant createdAt, String modelId, int dimension, List<FaqEntry> entries,
            List<float[]> vectors, String englishModelId, int englishDimension, List<float[]> englishVectors) {
        byte[] body = body(version, createdAt, modelId, dimension, entries, vectors, englishModelId, englishDimension,
            englishVectors);
        return new FaqSnapshot(version, createdAt, modelId, dimension, entries, vectors, englishModelId,
            englishDimension, englishVectors, sha256(body));
    }

    static byte[] encode(FaqSnapshot s) {
        List<float[]> vectors = new ArrayList<>(s.textCount());
        List<float[]> english = new ArrayList<>(s.textCount());
        for (int i = 0; i < s.textCount(); i++) {
            vectors.add(s.vectorUnsafe(i));
            english.add(s.englishVectorUnsafe(i));
        }
        byte[] body = body(s.version(), s.createdAt(), s.modelId(), s.dimension(), s.entries(), vectors,
            s.englishModelId(), s.englishDimension(), s.englishModelId() == null ? null : english);
        byte[] sum = HexFormat.of().parseHex(sha256(body));
        byte[] out = Arrays.copyOf(body, body.length + sum.length);
        System.arraycopy(sum, 0, out, body.length, sum.length);
        return out;
    }

    static FaqSnapshot decode(byte[] bytes) {
        if (bytes.length < MAGIC.length + 32) {
            throw new IllegalStateException("snapshot file is truncated");
        }
        byte[] body = Arrays.copyOf(bytes, bytes.length - 32);
        String expected = HexFormat.of().formatHex(bytes, bytes.length - 32, bytes.length);
        String actual = sha256(body);
        if (!expected.equals(actual)) {
            throw new IllegalStateException("snapshot checksum mismatch (file damaged)");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(body))) {
            byte[] magic = in.readNBytes(MAGIC.length);
            boolean v2 = Arrays.equals(magic, MAGIC);
            if (!v2 && !Arrays.equals(magic, MAGIC_V1)) {
                throw new IllegalStateException("not a FAQ snapshot file");
            }
            long version = in.readLong();
            Instant createdAt = Instant.ofEpochMilli(in.readLong());
            String modelId = str(in);
            int dimension = in.readInt();
            String englishModelId = v2 ? str(in) : null;
            int englishDimension = v2 ? in.readInt() : 0;
            int count = in.readInt();
            List<FaqEntry> entries = new ArrayList<>(count);
            List<float[]> vectors = new ArrayList<>();
            List<float[]> english = englishModelId == null ? null : new ArrayList<>();
            for (int e = 0; e < count; e++) {
                long id = in.readLong();
                String key = str(in);
                String question = str(in);
                String answer = str(in);
                String category = str(in);
                List<String> tags = strs(in);
                Instant from = time(in.readLong());
                Instant until = time(in.readLong());
                Instant updated = time(in.readLong());
                List<String> phrasings = strs(in);
                entries.add(new FaqEntry(id, key, question, phrasings, answer, category, tags, from, until, updated));
                int texts = in.readInt();
                for (int t = 0; t < texts; t++) {
                    vectors.add(floats(in, dimension));
                }
                for (int t = 0; v2 && t < texts; t++) {
                    float[] en = in.readBoolean() ? floats(in, englishDimension) : null;
                    if (english != null) {
                        english.add(en);
                    }
                }
            }
            return new FaqSnapshot(version, createdAt, modelId, dimension, entries, vectors, englishModelId,
                englishDimension, english, actual);
        } catch (IOException e) {
            throw new IllegalStateException("snapshot file is truncated or malformed", e);
        }
    }

    private static float[] floats(DataInputStream in, int dimension) throws IOException {
        float[] v = new float[dimension];
        for (int d = 0; d < dimension; d++) {
            v[d] = in.readFloat();
        }
        return v;
    }

    private static void floats(DataOutputStream out, float[] vec, int dimension) throws IOException {
        if (vec.length != dimension) {
            throw new IllegalArgumentException("vector of " + vec.length + " dimensions, expected " + dimension);
        }
        for (float f : vec) {
            out.writeFloat(f);
        }
    }

    private static byte[] body(long version, Instant createdAt, String modelId, int dimension, List<FaqEntry> entries,
            List<float[]> vectors, String englishModelId, int englishDimension, List<float[]> englishVectors) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.write(MAGIC);
            out.writeLong(version);
            out.writeLong(createdAt.toEpochMilli());
            str(out, modelId);
            out.writeInt(dimension);
            str(out, englishVectors == null ? null : englishModelId);
            out.writeInt(englishVectors == null ? 0 : englishDimension);
            out.writeInt(entries.size());
            int v = 0;
            for (FaqEntry e : entries) {
                out.writeLong(e.id());
                str(out, e.key());
                str(out, e.question());
                str(out, e.answer());
                str(out, e.category());
                strs(out, e.tags());
                out.writeLong(millis(e.validFrom()));
                out.writeLong(millis(e.validUntil()));
                out.writeLong(millis(e.updatedAt()));
                strs(out, e.phrasings());
                int texts = e.texts().size();
                out.writeInt(texts);
                for (int t = 0; t < texts; t++) {
                    floats(out, vectors.get(v + t), dimension);
                }
                for (int t = 0; t < texts; t++) {
                    float[] en = englishVectors == null ? null : englishVectors.get(v + t);
                    out.writeBoolean(en != null);
                    if (en != null) {
                        floats(out, en, englishDimension);
                    }
                }
                v += texts;
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void str(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String str(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        if (n > 10_000_000) {
            throw new IOException("string too long");
        }
        return new String(in.readNBytes(n), StandardCharsets.UTF_8);
    }

    private static void strs(DataOutputStream out, List<String> list) throws IOException {
        out.writeInt(list.size());
        for (String s : list) {
            str(out, s);
        }
    }

    private static List<String> strs(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<String> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(str(in));
        }
        return list;
    }

    private static long millis(Instant i) {
        return i == null ? NONE : i.toEpochMilli();
    }

    private static Instant time(long m) {
        return m == NONE ? null : Instant.ofEpochMilli(m);
    }
}
