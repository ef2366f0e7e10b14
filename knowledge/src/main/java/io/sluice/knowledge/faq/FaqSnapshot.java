package io.sluice.knowledge.faq;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.sluice.knowledge.embedding.Scripts;
import io.sluice.knowledge.embedding.Vectors;

/**
 * An immutable, versioned FAQ snapshot: entries with one embedding per question/phrasing, matched
 * in memory by embedding similarity blended with keyword (character bigram / word) overlap.
 * Matching a question costs microseconds and needs nothing remote.
 *
 * <p>Latin-script texts may also carry a vector of the English model (all-MiniLM-L6-v2): a Latin-script
 * question with an English query vector is then matched against those, as in the Lucene KNN tier, because
 * BGE-small-zh ranks English paraphrases poorly.
 */
public final class FaqSnapshot {

    /** Weight of keyword overlap in the blended score (the rest is cosine similarity). */
    static final float KEYWORD_WEIGHT = 0.3f;
    /**
     * The English model's cosine spreads wider than BGE's (its threshold is 0.3 where BGE's is 0.5), so
     * it is mapped linearly onto BGE's scale (0.3 → 0.5, 1 → 1) and one FAQ threshold serves both.
     */
    static final float ENGLISH_STRETCH = 5f / 7f;

    private final long version;
    private final Instant createdAt;
    private final String modelId;
    private final int dimension;
    private final List<FaqEntry> entries;
    /** Flattened: text i belongs to entries.get(owner[i]). */
    private final String[] texts;
    private final int[] owner;
    private final float[][] vectors;
    private final List<Set<String>> keywords;
    private final String englishModelId;
    private final int englishDimension;
    /** The English model's vector of text i, null for texts that are not Latin-script. */
    private final float[][] englishVectors;
    private final boolean hasEnglish;
    private final String checksum;

    FaqSnapshot(long version, Instant createdAt, String modelId, int dimension, List<FaqEntry> entries,
            List<float[]> textVectors, String checksum) {
        this(version, createdAt, modelId, dimension, entries, textVectors, null, 0, null, checksum);
    }

    /**
     * @param englishVectors one per text (null entries for non-Latin texts), or null when the snapshot has none
     */
    FaqSnapshot(long version, Instant createdAt, String modelId, int dimension, List<FaqEntry> entries,
            List<float[]> textVectors, String englishModelId, int englishDimension, List<float[]> englishVectors,
            String checksum) {
        this.version = version;
        this.createdAt = createdAt;
        this.modelId = modelId;
        this.dimension = dimension;
        this.entries = List.copyOf(entries);
        int n = entries.stream().mapToInt(e -> e.texts().size()).sum();
        if (textVectors.size() != n) {
            throw new IllegalArgumentException("expected " + n + " vectors, got " + textVectors.size());
        }
        texts = new String[n];
        owner = new int[n];
        vectors = new float[n][];
        List<Set<String>> kw = new ArrayList<>(n);
        int i = 0;
        for (int e = 0; e < this.entries.size(); e++) {
            for (String t : this.entries.get(e).texts()) {
                texts[i] = t;
                owner[i] = e;
                vectors[i] = textVectors.get(i).clone();
                kw.add(keywords(t));
                i++;
            }
        }
        keywords = List.copyOf(kw);
        if (englishVectors != null && englishVectors.size() != n) {
            throw new IllegalArgumentException("expected " + n + " English vectors, got " + englishVectors.size());
        }
        this.englishModelId = englishVectors == null ? null : englishModelId;
        this.englishDimension = englishVectors == null ? 0 : englishDimension;
        this.englishVectors = new float[n][];
        boolean any = false;
        for (int t = 0; englishVectors != null && t < n; t++) {
            float[] v = englishVectors.get(t);
            if (v != null) {
                if (v.length != englishDimension) {
                    throw new IllegalArgumentException("English vector of " + v.length + " dimensions, expected "
                        + englishDimension);
                }
                this.englishVectors[t] = v.clone();
                any = true;
            }
        }
        this.hasEnglish = any;
        this.checksum = checksum;
    }

    public long version() {
        return version;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public String modelId() {
        return modelId;
    }

    public int dimension() {
        return dimension;
    }

    public List<FaqEntry> entries() {
        return entries;
    }

    public int size() {
        return entries.size();
    }

    /** The English model whose vectors the Latin-script texts carry, or null. */
    public String englishModelId() {
        return englishModelId;
    }

    public int englishDimension() {
        return englishDimension;
    }

    /** True when at least one text carries an English-model vector. */
    public boolean hasEnglishVectors() {
        return hasEnglish;
    }

    /** SHA-256 over the serialized content; verified when loaded from disk. */
    public String checksum() {
        return checksum;
    }

    int textCount() {
        return texts.length;
    }

    String text(int i) {
        return texts[i];
    }

    float[] vector(int i) {
        return vectors[i].clone();
    }

    float[] vectorUnsafe(int i) {
        return vectors[i];
    }

    /** The English model's vector of text i, or null. */
    float[] englishVectorUnsafe(int i) {
        return englishVectors[i];
    }

    /**
     * Best entries for a question, one match per entry, best first.
     *
     * @param queryVector the question's embedding, or null to match by keywords alone
     * @param at          entries outside their validity window at this instant are skipped
     */
    public List<FaqMatch> match(String question, float[] queryVector, int k, String category, Instant at) {
        return match(question, queryVector, null, k, category, at);
    }

    /**
     * Best entries for a question, one match per entry (the best of its question and phrasings), best first.
     *
     * @param englishVector the question's English-model embedding, or null; used (instead of
     *                      {@code queryVector}) when the question is Latin-script and the snapshot has
     *                      English vectors: only Latin-script texts are then compared by embedding
     */
    public List<FaqMatch> match(String question, float[] queryVector, float[] englishVector, int k, String category,
            Instant at) {
        if (entries.isEmpty()) {
            return List.of();
        }
        Set<String> qk = keywords(question);
        float[] best = new float[entries.size()];
        int[] bestText = new int[entries.size()];
        java.util.Arrays.fill(best, -1f);
        boolean useEnglish = usesEnglish(question, englishVector);
        boolean useVector = !useEnglish && queryVector != null && queryVector.length == dimension;
        for (int i = 0; i < texts.length; i++) {
            float kwScore = dice(qk, keywords.get(i));
            float score;
            if (useEnglish) {
                float[] en = englishVectors[i];
                float cosine = en == null ? 0 : 1 - (1 - Vectors.dot(englishVector, en)) * ENGLISH_STRETCH;
                score = (1 - KEYWORD_WEIGHT) * Math.max(0, cosine) + KEYWORD_WEIGHT * kwScore;
            } else {
                score = useVector
                    ? (1 - KEYWORD_WEIGHT) * Vectors.dot(queryVector, vectors[i]) + KEYWORD_WEIGHT * kwScore
                    : kwScore;
            }
            if (score > best[owner[i]]) {
                best[owner[i]] = score;
                bestText[owner[i]] = i;
            }
        }
        List<FaqMatch> out = new ArrayList<>();
        for (int e = 0; e < entries.size(); e++) {
            FaqEntry entry = entries.get(e);
            if (best[e] <= 0 || (category != null && !category.equals(entry.category()))
                    || (at != null && !entry.validAt(at))) {
                continue;
            }
            out.add(new FaqMatch(entry, best[e], texts[bestText[e]]));
        }
        out.sort(Collections.reverseOrder(java.util.Comparator.comparingDouble(FaqMatch::score)));
        return out.size() > k ? List.copyOf(out.subList(0, k)) : out;
    }

    /** Whether {@link #match} takes the English route for this question and English query vector. */
    public boolean usesEnglish(String question, float[] englishVector) {
        return hasEnglish && englishVector != null && englishVector.length == englishDimension
            && Scripts.latin(question);
    }

    /** Keyword features: CJK character bigrams (and single characters of 1-char runs), lower-cased Latin words. */
    static Set<String> keywords(String text) {
        Set<String> out = new HashSet<>();
        // the one normalisation (case, width, Traditional → Simplified), so 掛失 matches 挂失 too
        String s = io.sluice.knowledge.text.TextNormalizer.normalize(text).toLowerCase(Locale.ROOT);
        StringBuilder word = new StringBuilder();
        StringBuilder cjk = new StringBuilder();
        for (int i = 0; i <= s.length(); i++) {
            char c = i < s.length() ? s.charAt(i) : ' ';
            if (Character.isIdeographic(c)) {
                flushWord(out, word);
                cjk.append(c);
            } else {
                flushCjk(out, cjk);
                if (Character.isLetterOrDigit(c)) {
                    word.append(c);
                } else {
                    flushWord(out, word);
                }
            }
        }
        return out;
    }

    private static void flushWord(Set<String> out, StringBuilder word) {
        if (word.length() > 1) {
            out.add(word.toString());
        }
        word.setLength(0);
    }

    private static void flushCjk(Set<String> out, StringBuilder cjk) {
        if (cjk.length() == 1) {
            out.add(cjk.toString());
        }
        for (int i = 0; i + 1 < cjk.length(); i++) {
            out.add(cjk.substring(i, i + 2));
        }
        cjk.setLength(0);
    }

    private static float dice(Set<String> a, Set<String> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return 0;
        }
        int common = 0;
        Set<String> small = a.size() < b.size() ? a : b;
        Set<String> large = small == a ? b : a;
        for (String x : small) {
            if (large.contains(x)) {
                common++;
            }
        }
        return 2f * common / (a.size() + b.size());
    }
}
