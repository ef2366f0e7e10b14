package io.sluice.knowledge.embedding;

/** Small vector helpers shared by the tiers. */
public final class Vectors {

    private Vectors() {
    }

    /** Scales to unit length in place and returns the same array; a zero vector stays zero. */
    public static float[] normalize(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += (double) x * x;
        }
        if (sum == 0) {
            return v;
        }
        float inv = (float) (1.0 / Math.sqrt(sum));
        for (int i = 0; i < v.length; i++) {
            v[i] *= inv;
        }
        return v;
    }

    /**
     * Dot product; equals cosine similarity for unit vectors. Four running sums instead of one: the JIT
     * does not reorder a float reduction, so a single sum waits for each addition in turn; four
     * independent ones keep the CPU's adders busy (about 3× faster on 512 dimensions; the FAQ, intent
     * and cache scans are made of these). The sum differs from the sequential one only in rounding.
     */
    public static float dot(float[] a, float[] b) {
        int n = a.length;
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int i = 0;
        for (int upTo = n & ~3; i < upTo; i += 4) {
            s0 += a[i] * b[i];
            s1 += a[i + 1] * b[i + 1];
            s2 += a[i + 2] * b[i + 2];
            s3 += a[i + 3] * b[i + 3];
        }
        for (; i < n; i++) {
            s0 += a[i] * b[i];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /** pgvector's text form: {@code [0.1,0.2,...]}. */
    public static String toPgLiteral(float[] v) {
        StringBuilder sb = new StringBuilder(v.length * 10).append('[');
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(v[i]);
        }
        return sb.append(']').toString();
    }
}
