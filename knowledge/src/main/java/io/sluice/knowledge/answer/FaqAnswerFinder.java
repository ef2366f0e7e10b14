package io.sluice.knowledge.answer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.chain.RetrievalResult;
import io.sluice.knowledge.chain.RetrievalTier;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.chain.TierKind;
import io.sluice.knowledge.chain.TierQuery;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqMatch;
import io.sluice.knowledge.faq.FaqSnapshot;
import io.sluice.knowledge.faq.FaqSnapshotService;

/**
 * The one F1 path: which FAQ entry answers a question, without any LLM. Candidates come from the first
 * vector tier's FAQ-mirror hits (the chain's, or searched directly when the chain handed over) and from
 * the published FAQ snapshot. The relevance bars decide only whether the question is answered at all
 * (some candidate clears its tier's bar; else the honest no-answer), never which entry wins. Candidates
 * are ranked by the question's cosine to the entry's best question or phrasing plus
 * {@link #ANSWER_WEIGHT} times its cosine to the entry's answer (tune sets: English hit@1 0.77 → 0.81,
 * Traditional Chinese bank 0.93 → 0.96; the weight was chosen from 0, 0.2, 0.35, 0.5, 0.75 on the tune
 * queries only; the snapshot's keyword blend ranked worse than the plain cosine). Among near-equal
 * candidates the one in the question's language wins, and an entry's language variant
 * ({@code <key>.en}, {@code <key>.zh}) replaces it when the question is in that language. The chat, the
 * hit-test API, the console and the {@code faq-queries} evaluation all call this, so what they report is
 * what customers get.
 */
public class FaqAnswerFinder {

    /** One ranked candidate entry; {@code via} names the tier that found it. */
    public record Candidate(FaqEntry entry, double score, String via, String matched) {
        public String key() {
            return entry.key();
        }
    }

    /**
     * @param ranked every candidate, best first (at most {@link #CANDIDATES})
     * @param best   the entry F1 answers with, or null when no candidate clears its relevance bar
     */
    public record Found(String question, AnswerLanguage language, RetrievalResult retrieval, List<Candidate> ranked,
            Candidate best) {
        public boolean answered() {
            return best != null;
        }
    }

    /** Candidates gathered from each source (hit@5 needs five). */
    public static final int CANDIDATES = 5;
    /** A same-language candidate replaces the best one when its score (same source) is this close. */
    static final double LANGUAGE_MARGIN = 0.05;
    /** Weight of the question-to-answer cosine in the ranking (chosen on the tune sets, not the held-out ones). */
    public static final double ANSWER_WEIGHT = 0.75;

    private final RetrievalChain chain;
    private final FaqSnapshotService snapshots;
    private final Embedder embedder;
    private final Embedder english;
    /** Vectors of entry texts and answers for the ranking, per snapshot version and model (filled lazily). */
    private volatile TextVectors vectors = new TextVectors(-1, new java.util.concurrent.ConcurrentHashMap<>());

    private record TextVectors(long version, Map<String, float[]> byModelAndText) {
    }

    public FaqAnswerFinder(RetrievalChain chain, FaqSnapshotService snapshots, Embedder embedder) {
        this(chain, snapshots, embedder, null);
    }

    /** @param english the English model for Latin-script questions (null: the main model for all) */
    public FaqAnswerFinder(RetrievalChain chain, FaqSnapshotService snapshots, Embedder embedder, Embedder english) {
        this.chain = chain;
        this.snapshots = snapshots;
        this.embedder = embedder;
        this.english = english;
    }

    /** Runs the chain with {@code plan} (its thresholds are the relevance bars) and picks the entry. */
    public Found find(String question, RetrievalPlan plan) {
        return find(question, plan, chain.retrieve(question, plan.topK() < CANDIDATES ? plan.withTopK(CANDIDATES) : plan));
    }

    /**
     * Picks the entry from a chain result already computed for this question with {@code plan}. The bars
     * decide only whether the question is answered at all (some candidate clears its tier's bar); which
     * entry answers is ranked over every candidate, so a bar never changes which entry wins.
     */
    public Found find(String question, RetrievalPlan plan, RetrievalResult retrieval) {
        AnswerLanguage language = AnswerLanguage.of(question);
        FaqSnapshot snapshot = snapshots.current();
        Map<String, Candidate> ranked = new LinkedHashMap<>();
        boolean relevant = false;
        List<Passage> vectorHits = retrieval != null && retrieval.answeredBy() != null
            && retrieval.answeredBy().startsWith("vector") ? retrieval.passages() : vectorHits(question, plan);
        for (Passage p : vectorHits) {
            if (p.isFaq() && !ranked.containsKey(p.source().faqKey())) {
                Optional<FaqEntry> e = entry(snapshot, p.source().faqKey());
                if (e.isPresent()) {
                    ranked.put(e.get().key(), new Candidate(e.get(), p.score(), p.tier(), p.text()));
                    relevant |= p.score() >= plan.minScore(TierKind.VECTOR, p);
                }
            }
        }
        for (FaqMatch m : snapshotMatches(snapshot, question, plan)) {
            ranked.putIfAbsent(m.entry().key(), new Candidate(m.entry(), m.score(), "faq-snapshot", m.matched()));
            relevant |= m.score() >= plan.minFaqScore();
        }
        List<Candidate> list = rank(snapshot, question, new ArrayList<>(ranked.values()));
        Candidate best = list.isEmpty() || !relevant ? null : inLanguage(snapshot, list, language);
        return new Found(question, language, retrieval, list.size() > CANDIDATES ? list.subList(0, CANDIDATES) : list,
            best);
    }

    /** The first vector tier's FAQ hits, searched directly (the chain handed over below the vector bar). */
    private List<Passage> vectorHits(String question, RetrievalPlan plan) {
        float[] vector;
        try {
            vector = embedder.embed(question);
        } catch (RuntimeException e) {
            return List.of();
        }
        TierQuery query = new TierQuery(question, vector, new SearchFilter(plan.category(), Instant.now()));
        for (RetrievalTier tier : chain.tiers()) {
            if (tier.kind() != TierKind.VECTOR || tier.skipReason(query) != null) {
                continue;
            }
            try {
                List<Passage> found = tier.search(query, CANDIDATES);
                if (!found.isEmpty()) {
                    return found;
                }
            } catch (Exception e) {
                // this tier is down: the next vector tier, else the snapshot alone
            }
        }
        return List.of();
    }

    /**
     * Orders the candidates by question-to-text cosine plus {@link #ANSWER_WEIGHT} × question-to-answer
     * cosine; their scores stay what their tier gave (the relevance bars judged those). Without an
     * embedding (model down) the tiers' order stays.
     */
    List<Candidate> rank(FaqSnapshot snapshot, String question, List<Candidate> candidates) {
        if (candidates.size() < 2) {
            return List.copyOf(candidates);
        }
        Embedder model = english != null && io.sluice.knowledge.embedding.Scripts.latin(question) ? english : embedder;
        try {
            float[] q = model.embed(question);
            Map<String, float[]> cache = vectorsFor(snapshot);
            String prefix = model.modelId() + "\u0000";
            Map<Candidate, Double> fused = new java.util.HashMap<>();
            for (Candidate c : candidates) {
                List<String> texts = new ArrayList<>(c.entry().texts());
                texts.add(c.entry().answer());
                List<String> missing = texts.stream().filter(t -> !cache.containsKey(prefix + t)).distinct().toList();
                if (!missing.isEmpty()) {
                    List<float[]> embedded = model.embedAll(missing);
                    for (int i = 0; i < missing.size(); i++) {
                        cache.put(prefix + missing.get(i), embedded.get(i));
                    }
                }
                double text = -1;
                for (String t : c.entry().texts()) {
                    text = Math.max(text, io.sluice.knowledge.embedding.Vectors.dot(q, cache.get(prefix + t)));
                }
                double answer = io.sluice.knowledge.embedding.Vectors.dot(q, cache.get(prefix + c.entry().answer()));
                fused.put(c, text + ANSWER_WEIGHT * answer);
            }
            candidates.sort(java.util.Comparator.comparingDouble((Candidate c) -> fused.get(c)).reversed());
        } catch (RuntimeException e) {
            // no embedding now: the tiers' order stays
        }
        return List.copyOf(candidates);
    }

    /** The vector cache of this snapshot version (a new version starts an empty one). */
    private Map<String, float[]> vectorsFor(FaqSnapshot snapshot) {
        TextVectors v = vectors;
        if (v.version() != snapshot.version()) {
            v = new TextVectors(snapshot.version(), new java.util.concurrent.ConcurrentHashMap<>());
            vectors = v;
        }
        return v.byModelAndText();
    }

    private List<FaqMatch> snapshotMatches(FaqSnapshot snapshot, String question, RetrievalPlan plan) {
        if (question == null || question.isBlank() || snapshot.size() == 0) {
            return List.of();
        }
        float[] vector;
        try {
            vector = embedder.embed(question);
        } catch (RuntimeException e) {
            vector = null; // keywords alone
        }
        return snapshots.match(snapshot, question, vector, CANDIDATES, plan.category(), Instant.now());
    }

    /** The best candidate, or a near-equal one (or the best one's variant) in the question's language. */
    static Candidate inLanguage(FaqSnapshot snapshot, List<Candidate> ranked, AnswerLanguage language) {
        Candidate best = ranked.get(0);
        if (language == AnswerLanguage.OTHER || language.sameLanguage(AnswerLanguage.of(best.entry().answer()))) {
            return best;
        }
        Optional<FaqEntry> variant = variant(snapshot, best.entry(), language);
        if (variant.isPresent()) {
            return new Candidate(variant.get(), best.score(), best.via(), best.matched());
        }
        for (Candidate c : ranked.subList(1, Math.min(3, ranked.size()))) {
            if (c.via().equals(best.via()) && best.score() - c.score() <= LANGUAGE_MARGIN
                    && language.sameLanguage(AnswerLanguage.of(c.entry().answer()))) {
                return c;
            }
        }
        return best;
    }

    /** {@code ret-001} ↔ {@code ret-001.en}: the same entry written in another language. */
    static Optional<FaqEntry> variant(FaqSnapshot snapshot, FaqEntry entry, AnswerLanguage language) {
        String key = entry.key();
        int dot = key.lastIndexOf('.');
        String base = dot > 0 ? key.substring(0, dot) : key;
        List<String> wanted = new ArrayList<>();
        wanted.add(base + "." + language.code());
        wanted.add(base + "." + (language.isChinese() ? "zh" : language.code()));
        if (!base.equals(key)) {
            wanted.add(base);
        }
        for (String k : wanted) {
            Optional<FaqEntry> e = entry(snapshot, k);
            if (e.isPresent() && !e.get().key().equals(key)
                    && language.sameLanguage(AnswerLanguage.of(e.get().answer()))) {
                return e;
            }
        }
        return Optional.empty();
    }

    static Optional<FaqEntry> entry(FaqSnapshot snapshot, String key) {
        for (FaqEntry e : snapshot.entries()) {
            if (e.key().equals(key)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }
}
