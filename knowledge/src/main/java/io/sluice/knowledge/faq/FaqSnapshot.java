package io.sluice.knowledge.faq;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
     * The English model's cosine lies on another scale than BGE's (MiniLM's bar is 0.3, BGE-small-en's 0.65, where
     * BGE-small-zh's is 0.5), so it is mapped linearly onto BGE's scale (the model's bar → 0.5, 1 → 1; MiniLM:
     * × 5/7) and one FAQ threshold serves both: {@link io.sluice.knowledge.embedding.EnglishModels#stretch}.
     */
    private final float englishStretch;

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
    /** Keyword → the texts that have it (ascending), and each text's keyword count: dice overlap without a scan. */
    private final Map<String, int[]> postings;
    private final int[] keywordCounts;
    private final String englishModelId;
    private final int englishDimension;
    /** The English model's vector of text i, null for texts that are not Latin-script. */
    private final float[][] englishVectors;
    private final boolean hasEnglish;
    private final String checksum;
    /** Entry key → {entry index, index of its first text}. */
    private final java.util.Map<String, int[]> byKey;

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
        Map<String, List<Integer>> byKeyword = new HashMap<>();
        keywordCounts = new int[n];
        for (int t = 0; t < n; t++) {
            keywordCounts[t] = keywords.get(t).size();
            for (String k : keywords.get(t)) {
                byKeyword.computeIfAbsent(k, x -> new ArrayList<>()).add(t);
            }
        }
        Map<String, int[]> post = new HashMap<>(byKeyword.size() * 2);
        byKeyword.forEach((k, list) -> post.put(k, list.stream().mapToInt(Integer::intValue).toArray()));
        postings = post;
        if (englishVectors != null && englishVectors.size() != n) {
            throw new IllegalArgumentException("expected " + n + " English vectors, got " + englishVectors.size());
        }
        this.englishModelId = englishVectors == null ? null : englishModelId;
        this.englishStretch = (float) io.sluice.knowledge.embedding.EnglishModels.stretch(this.englishModelId);
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
        java.util.Map<String, int[]> keys = new java.util.HashMap<>();
        for (int e = 0, t = 0; e < this.entries.size(); e++) {
            keys.putIfAbsent(this.entries.get(e).key(), new int[] {e, t});
            t += this.entries.get(e).texts().size();
        }
        this.byKey = keys;
    }

    /** The entry with this key, if the snapshot holds it. */
    public java.util.Optional<FaqEntry> entry(String key) {
        int[] at = byKey.get(key);
        return at == null ? java.util.Optional.empty() : java.util.Optional.of(entries.get(at[0]));
    }

    /**
     * The stored vectors of an entry's texts (question first, then its variants): the main model's, or the
     * English model's ({@code null} for a text without one). Empty when the key is unknown. The arrays are
     * the snapshot's own: callers must not change them.
     */
    public List<float[]> textVectors(String key, boolean english) {
        int[] at = byKey.get(key);
        if (at == null) {
            return List.of();
        }
        int n = entries.get(at[0]).texts().size();
        List<float[]> out = new ArrayList<>(n);
        for (int i = at[1]; i < at[1] + n; i++) {
            out.add(english ? englishVectors[i] : vectors[i]);
        }
        return out;
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
        boolean useEnglish = usesEnglish(question, englishVector);
        boolean useVector = !useEnglish && queryVector != null && queryVector.length == dimension;
        // the scores are a function of the question's text (its vectors come from the snapshot's models): a
        // question asked again is not scanned again (1,500 texts × 512 dimensions). Category and validity
        // are applied afterwards, at every call
        String memoKey = (useEnglish ? 'e' : useVector ? 'v' : 'k') + question;
        Scores scores = question.length() <= MEMO_MAX_CHARS ? memo.get(memoKey) : null;
        if (scores == null) {
            scores = scores(question, queryVector, englishVector, useEnglish, useVector);
            if (question.length() <= MEMO_MAX_CHARS) {
                if (memo.size() >= MEMO_ENTRIES) {
                    memo.clear();
                }
                memo.put(memoKey, scores);
            }
        }
        float[] best = scores.best();
        int[] bestText = scores.bestText();
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

    /** Each entry's best blended score over its texts, and which text gave it. */
    private record Scores(float[] best, int[] bestText) {
    }

    private static final int MEMO_ENTRIES = 1024;
    private static final int MEMO_MAX_CHARS = 512;
    private final Map<String, Scores> memo = new java.util.concurrent.ConcurrentHashMap<>();

    private Scores scores(String question, float[] queryVector, float[] englishVector, boolean useEnglish,
            boolean useVector) {
        Set<String> qk = keywords(question);
        float[] best = new float[entries.size()];
        int[] bestText = new int[entries.size()];
        java.util.Arrays.fill(best, -1f);
        // keywords shared with each text, from the postings of the question's keywords (not a scan of every set)
        int[] common = new int[texts.length];
        for (String keyword : qk) {
            int[] having = postings.get(keyword);
            if (having != null) {
                for (int t : having) {
                    common[t]++;
                }
            }
        }
        for (int i = 0; i < texts.length; i++) {
            float kwScore = dice(common[i], qk.size(), keywordCounts[i]);
            float score;
            if (useEnglish) {
                float[] en = englishVectors[i];
                float cosine = en == null ? 0 : 1 - (1 - Vectors.dot(englishVector, en)) * englishStretch;
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
        return new Scores(best, bestText);
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

    /** Dice overlap of two keyword sets of sizes {@code a} and {@code b} sharing {@code common}. */
    private static float dice(int common, int a, int b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return 2f * common / (a + b);
    }
}
