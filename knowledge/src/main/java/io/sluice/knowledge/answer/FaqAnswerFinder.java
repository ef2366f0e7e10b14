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
 * vector tier's FAQ-mirror hits (the chain's, or searched directly when the chain handed over), from the
 * published FAQ snapshot and from BM25, {@link Ranking#pool} from each. The relevance bars decide only
 * whether the question is answered at all (a vector or snapshot candidate clears its tier's bar; else the
 * honest no-answer), never which entry wins. Candidates are ranked by {@link Ranking#fuse}: the question's
 * best cosine over the entry's question and variants, plus weighted its second-best variant, its cosine to
 * the entry's answer and its BM25 share, with weights per embedding route chosen on the tune queries only
 * ({@link Ranking#MAIN}, {@link Ranking#ENGLISH}; docs/benchmarks-knowledge.md). Among near-equal
 * candidates the one in the question's language wins, and an entry's language variant ({@code <key>.en},
 * {@code <key>.zh}) replaces it when the question is in that language. The chat, the hit-test API, the
 * console and the {@code faq-queries} evaluation all call this, so what they report is what customers get.
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

    /** Candidates reported (hit@5 needs five). */
    public static final int CANDIDATES = 5;
    /** A same-language candidate replaces the best one when its score (same source) is this close. */
    static final double LANGUAGE_MARGIN = 0.05;

    /**
     * How candidates are ordered: {@code textCosine + answerWeight × answerCosine + lexicalWeight × bm25 +
     * supportWeight × secondTextCosine + centroidWeight × centroidCosine}, where {@code centroidCosine} is the
     * question's cosine to the normalised mean of the entry's question and variant vectors, {@code textCosine}
     * the question's best cosine over the entry's question and variants (question-to-question, the strongest
     * signal), {@code bm25} the entry's
     * BM25 score divided by the best BM25 score of the question (0 when BM25 did not find it), and
     * {@code secondTextCosine} the entry's second-best variant (an entry several variants agree on is more
     * likely right than one lucky phrasing). {@code pool} candidates are gathered from each source.
     */
    public record Ranking(double answerWeight, double lexicalWeight, double supportWeight, int pool,
            double centroidWeight) {

        /** Without the centroid term. */
        public Ranking(double answerWeight, double lexicalWeight, double supportWeight, int pool) {
            this(answerWeight, lexicalWeight, supportWeight, pool, 0);
        }

        /** Before issue 13's ranking work: answer cosine only, five candidates per source. */
        public static final Ranking ANSWER_ONLY = new Ranking(0.75, 0, 0, CANDIDATES);
        /**
         * Questions on the main model's route (BGE: Chinese and anything not Latin-script); the best on the
         * Chinese tune queries: the cosine to the centroid of the entry's question and variants adds what the
         * best single variant misses (every centroid weight tried, 0.25-1, was at or above the ranking without
         * it); the second variant did not help there. docs/benchmarks-knowledge.md.
         */
        public static final Ranking MAIN = new Ranking(0.5, 0.05, 0, 10, 0.5);
        /** The main route's ranking before the centroid term (a = 0.75, l = 0.05), for comparisons. */
        public static final Ranking MAIN_BEFORE_CENTROID = new Ranking(0.75, 0.05, 0, 10);
        /**
         * Latin-script questions on the English model's route (MiniLM): the best on the English tune queries,
         * where the entry's second-best variant was the strongest lever (+0.08 hit@1 on the sample FAQ).
         */
        public static final Ranking ENGLISH = new Ranking(0.5, 0.05, 1.0, 10);
        /**
         * Latin-script questions on the English route with BGE-small-en v1.5: the best on the English tune
         * queries. Its cosines lie closer together than MiniLM's, so the BM25 share (0-1) outweighed them and
         * is left out; the second variant still helps. docs/benchmarks-knowledge.md.
         */
        public static final Ranking ENGLISH_BGE = new Ranking(0.5, 0, 0.75, 10);

        /** The English route's ranking for this English model (by its id; MiniLM's for unknown ones). */
        public static Ranking english(Embedder model) {
            return model != null && model.modelId().startsWith(io.sluice.knowledge.embedding.OnnxBgeEnEmbedder.MODEL_ID)
                ? ENGLISH_BGE : ENGLISH;
        }

        public Ranking {
            if (answerWeight < 0 || lexicalWeight < 0 || supportWeight < 0 || centroidWeight < 0 || pool < CANDIDATES
                    || pool > 50) {
                throw new IllegalArgumentException("weights >= 0 and a pool of " + CANDIDATES + "-50 candidates");
            }
        }

        /** The fused score of one candidate's features. */
        public double fuse(double textCosine, double secondTextCosine, double answerCosine, double bm25Share,
                double centroidCosine) {
            return fuse(textCosine, secondTextCosine, answerCosine, bm25Share) + centroidWeight * centroidCosine;
        }

        /** The fused score without the centroid term. */
        public double fuse(double textCosine, double secondTextCosine, double answerCosine, double bm25Share) {
            return textCosine + answerWeight * answerCosine + lexicalWeight * bm25Share
                + supportWeight * Math.max(0, secondTextCosine);
        }
    }

    private final RetrievalChain chain;
    private final FaqSnapshotService snapshots;
    private final Embedder embedder;
    private final Embedder english;
    private final Ranking main;
    private final Ranking englishRoute;
    /**
     * Prefix of the question when its cosine to the answers is computed on the English route (a retrieval
     * instruction some models are trained with for short-query → passage search); null = the question as is.
     */
    private final String answerInstruction;
    /** The same for the main model's route (null = none; measured, not shipped: docs/benchmarks-knowledge.md). */
    private final String mainAnswerInstruction;
    /** Vectors of entry texts and answers for the ranking, per snapshot version and model. */
    private volatile TextVectors vectors = new TextVectors(-1);
    /** How long a question waits for answer vectors another question (or the warm-up) is computing. */
    private volatile java.time.Duration answerVectorWait = DEFAULT_ANSWER_VECTOR_WAIT;

    /** The default of {@code sluice.knowledge.faq.answer-vector-wait}. */
    public static final java.time.Duration DEFAULT_ANSWER_VECTOR_WAIT = java.time.Duration.ofSeconds(2);

    /**
     * One snapshot version's vectors, keyed by model id and text. Each text is embedded once: the first question
     * (or the warm-up) that needs it computes it, the others wait for that computation instead of repeating it,
     * so a burst of cold questions after a start or a publish does not queue duplicate inferences on the model.
     */
    private record TextVectors(long version, java.util.concurrent.ConcurrentHashMap<String,
            java.util.concurrent.CompletableFuture<float[]>> byModelAndText,
            java.util.concurrent.CompletableFuture<Void> warmed) {

        TextVectors(long version) {
            this(version, new java.util.concurrent.ConcurrentHashMap<>(), new java.util.concurrent.CompletableFuture<>());
        }

        float[] ready(String key) {
            java.util.concurrent.CompletableFuture<float[]> f = byModelAndText.get(key);
            return f != null && f.isDone() && !f.isCompletedExceptionally() ? f.join() : null;
        }
    }

    public FaqAnswerFinder(RetrievalChain chain, FaqSnapshotService snapshots, Embedder embedder) {
        this(chain, snapshots, embedder, null);
    }

    /** @param english the English model for Latin-script questions (null: the main model for all) */
    public FaqAnswerFinder(RetrievalChain chain, FaqSnapshotService snapshots, Embedder embedder, Embedder english) {
        this(chain, snapshots, embedder, english, Ranking.MAIN, Ranking.english(english));
    }

    /**
     * @param main         ranking of questions the main model answers
     * @param englishRoute ranking of Latin-script questions when there is an English model
     */
    public FaqAnswerFinder(RetrievalChain chain, FaqSnapshotService snapshots, Embedder embedder, Embedder english,
            Ranking main, Ranking englishRoute) {
        this(chain, snapshots, embedder, english, main, englishRoute, null);
    }

    /** @param answerInstruction prefix of English-route questions compared with answers (null: none) */
    public FaqAnswerFinder(RetrievalChain chain, FaqSnapshotService snapshots, Embedder embedder, Embedder english,
            Ranking main, Ranking englishRoute, String answerInstruction) {
        this(chain, snapshots, embedder, english, main, englishRoute, answerInstruction, null);
    }

    /** @param mainAnswerInstruction the same for questions on the main model's route (null: none) */
    public FaqAnswerFinder(RetrievalChain chain, FaqSnapshotService snapshots, Embedder embedder, Embedder english,
            Ranking main, Ranking englishRoute, String answerInstruction, String mainAnswerInstruction) {
        this.mainAnswerInstruction = mainAnswerInstruction == null || mainAnswerInstruction.isEmpty() ? null
            : mainAnswerInstruction;
        this.chain = chain;
        this.snapshots = snapshots;
        this.embedder = embedder;
        this.english = english;
        this.main = main;
        this.englishRoute = englishRoute;
        this.answerInstruction = answerInstruction == null || answerInstruction.isEmpty() ? null : answerInstruction;
    }

    /** The ranking this question gets: by the model that embeds it (English route or main). */
    public Ranking ranking(String question) {
        return englishRoute(question) ? englishRoute : main;
    }

    private boolean englishRoute(String question) {
        return english != null && question != null && io.sluice.knowledge.embedding.Scripts.latin(question);
    }

    /** Runs the chain with {@code plan} (its thresholds are the relevance bars) and picks the entry. */
    public Found find(String question, RetrievalPlan plan) {
        int pool = ranking(question).pool();
        return find(question, plan, chain.retrieve(question, plan.topK() < pool ? plan.withTopK(pool) : plan));
    }

    /**
     * Picks the entry from a chain result already computed for this question with {@code plan}. The bars
     * decide only whether the question is answered at all (some candidate clears its tier's bar); which
     * entry answers is ranked over every candidate, so a bar never changes which entry wins. BM25's
     * candidates join the ranking but never make a question relevant on their own.
     */
    public Found find(String question, RetrievalPlan plan, RetrievalResult retrieval) {
        AnswerLanguage language = AnswerLanguage.of(question);
        FaqSnapshot snapshot = snapshots.current();
        Ranking ranking = ranking(question);
        Map<String, Candidate> ranked = new LinkedHashMap<>();
        boolean relevant = false;
        List<Passage> vectorHits = retrieval != null && retrieval.answeredBy() != null
            && retrieval.answeredBy().startsWith("vector") ? retrieval.passages()
            : tierHits(question, plan, TierKind.VECTOR, ranking.pool());
        for (Passage p : vectorHits) {
            if (p.isFaq() && !ranked.containsKey(p.source().faqKey())) {
                Optional<FaqEntry> e = entry(snapshot, p.source().faqKey());
                if (e.isPresent()) {
                    ranked.put(e.get().key(), new Candidate(e.get(), p.score(), p.tier(), p.text()));
                    relevant |= p.score() >= plan.minScore(TierKind.VECTOR, p);
                }
            }
        }
        for (FaqMatch m : snapshotMatches(snapshot, question, plan, ranking.pool())) {
            ranked.putIfAbsent(m.entry().key(), new Candidate(m.entry(), m.score(), "faq-snapshot", m.matched()));
            relevant |= m.score() >= plan.minFaqScore();
        }
        Map<String, Double> bm25 = new java.util.HashMap<>();
        if (ranking.lexicalWeight() > 0) {
            List<Passage> lexical = retrieval != null && LEXICAL_TIER.equals(retrieval.answeredBy())
                ? retrieval.passages() : tierHits(question, plan, TierKind.LEXICAL, ranking.pool());
            double top = lexical.stream().filter(Passage::isFaq).mapToDouble(Passage::score).max().orElse(0);
            for (Passage p : lexical) {
                if (p.isFaq() && top > 0) {
                    bm25.merge(p.source().faqKey(), p.score() / top, Math::max);
                    Optional<FaqEntry> e = ranked.containsKey(p.source().faqKey()) ? Optional.empty()
                        : entry(snapshot, p.source().faqKey());
                    e.ifPresent(x -> ranked.put(x.key(), new Candidate(x, p.score(), p.tier(), p.text())));
                }
            }
        }
        List<Candidate> list = rank(snapshot, question, new ArrayList<>(ranked.values()), bm25, ranking);
        Candidate best = list.isEmpty() || !relevant ? null : inLanguage(snapshot, list, language);
        return new Found(question, language, retrieval, list.size() > CANDIDATES ? list.subList(0, CANDIDATES) : list,
            best);
    }

    private static final String LEXICAL_TIER = io.sluice.knowledge.lexical.LuceneIndex.TIER_BM25;

    /** The first tier of this kind that finds something, searched directly (the chain handed over past it). */
    private List<Passage> tierHits(String question, RetrievalPlan plan, TierKind kind, int pool) {
        float[] vector = null;
        if (kind == TierKind.VECTOR) {
            try {
                vector = embedder.embed(question);
            } catch (RuntimeException e) {
                return List.of();
            }
        }
        TierQuery query = new TierQuery(question, vector, new SearchFilter(plan.category(), Instant.now()));
        for (RetrievalTier tier : chain.tiers()) {
            if (tier.kind() != kind || tier.skipReason(query) != null) {
                continue;
            }
            try {
                List<Passage> found = tier.search(query, pool);
                if (!found.isEmpty()) {
                    return found;
                }
            } catch (Exception e) {
                // this tier is down: the next one of its kind, else the other sources alone
            }
        }
        return List.of();
    }

    /**
     * Orders the candidates by {@link Ranking#fuse}; their scores stay what their tier gave (the relevance
     * bars judged those). Without an embedding (model down) the tiers' order stays.
     */
    List<Candidate> rank(FaqSnapshot snapshot, String question, List<Candidate> candidates, Map<String, Double> bm25,
            Ranking ranking) {
        if (candidates.size() < 2) {
            return List.copyOf(candidates);
        }
        Embedder model = englishRoute(question) ? english : embedder;
        try {
            float[] q = model.embed(question);
            TextVectors cache = vectorsFor(snapshot);
            String prefix = model.modelId() + "\u0000";
            // the snapshot's own vectors of the entry texts when they come from this model (no inference per query)
            boolean onEnglish = model == english;
            boolean stored = onEnglish ? model.modelId().equals(snapshot.englishModelId())
                : model.modelId().equals(snapshot.modelId());
            List<String> missing = new ArrayList<>();
            Map<Candidate, double[]> best2 = new java.util.HashMap<>();
            for (Candidate c : candidates) {
                List<float[]> fromSnapshot = stored ? snapshot.textVectors(c.key(), onEnglish) : List.of();
                List<String> texts = c.entry().texts();
                for (int i = 0; i < texts.size(); i++) {
                    float[] v = i < fromSnapshot.size() && fromSnapshot.get(i) != null
                        && fromSnapshot.get(i).length == q.length ? fromSnapshot.get(i) : cache.ready(prefix + texts.get(i));
                    if (v == null) {
                        missing.add(texts.get(i));
                    }
                }
            }
            // the entry texts are needed (their cosines are the ranking): waited for without a bound
            embed(model, prefix, cache, missing, null);
            for (Candidate c : candidates) {
                List<float[]> fromSnapshot = stored ? snapshot.textVectors(c.key(), onEnglish) : List.of();
                List<String> texts = c.entry().texts();
                double first = -1;
                double second = -1;
                float[] sum = ranking.centroidWeight() > 0 ? new float[q.length] : null;
                for (int i = 0; i < texts.size(); i++) {
                    float[] v = i < fromSnapshot.size() && fromSnapshot.get(i) != null
                        && fromSnapshot.get(i).length == q.length ? fromSnapshot.get(i) : cache.ready(prefix + texts.get(i));
                    if (sum != null) {
                        for (int d = 0; d < sum.length; d++) {
                            sum[d] += v[d];
                        }
                    }
                    double cos = io.sluice.knowledge.embedding.Vectors.dot(q, v);
                    if (cos > first) {
                        second = first;
                        first = cos;
                    } else if (cos > second) {
                        second = cos;
                    }
                }
                if (texts.size() == 1) {
                    second = first; // one text: nothing disagrees with it (no penalty for having no variants)
                }
                double centroid = sum == null ? 0
                    : io.sluice.knowledge.embedding.Vectors.dot(q, io.sluice.knowledge.embedding.Vectors.normalize(sum));
                best2.put(c, new double[] {first, second, centroid});
            }
            // the answer cosine only for the leading candidates by everything else (answers are embedded on
            // first use; a cold question against a large FAQ would otherwise embed up to 3 × pool answers)
            Map<Candidate, Double> partial = new java.util.HashMap<>();
            for (Candidate c : candidates) {
                double[] b = best2.get(c);
                partial.put(c, ranking.fuse(b[0], b[1], 0, bm25.getOrDefault(c.key(), 0.0), b[2]));
            }
            List<Candidate> leading = candidates.stream()
                .sorted(java.util.Comparator.comparingDouble((Candidate c) -> partial.get(c)).reversed())
                .limit(ANSWER_RERANK).toList();
            // the answer term is a refinement: answers not ready within the bound (a cold burst on a loaded
            // machine) leave it out for this question rather than hold the answer; the vectors still arrive
            boolean answers = ranking.answerWeight() > 0 && embed(model, prefix, cache,
                leading.stream().map(c -> c.entry().answer()).toList(), answerVectorWait);
            Map<Candidate, Double> fused = new java.util.HashMap<>(partial);
            String instruction = onEnglish ? answerInstruction : mainAnswerInstruction;
            float[] qa = instruction != null && answers ? model.embed(instruction + question) : q;
            for (Candidate c : leading) {
                double[] b = best2.get(c);
                double answer = answers
                    ? io.sluice.knowledge.embedding.Vectors.dot(qa, cache.ready(prefix + c.entry().answer())) : 0;
                // leading candidates rank above the rest whatever their answer cosine (it is >= -1)
                fused.put(c, LEADING + ranking.fuse(b[0], b[1], answer, bm25.getOrDefault(c.key(), 0.0), b[2]));
            }
            candidates.sort(java.util.Comparator.comparingDouble((Candidate c) -> fused.get(c)).reversed());
        } catch (RuntimeException e) {
            // no embedding now: the tiers' order stays
        }
        return List.copyOf(candidates);
    }

    /** Candidates whose answer cosine is computed (the rest keep their order behind them). */
    static final int ANSWER_RERANK = 10;
    private static final double LEADING = 100;

    /**
     * Makes sure {@code texts} have vectors in {@code cache}: the ones nobody computes yet are embedded here in one
     * batch, the ones another thread is computing are waited for. True when every vector is there; false when
     * {@code wait} (null = no bound) ran out or the model failed for one of them.
     */
    private static boolean embed(Embedder model, String prefix, TextVectors cache, List<String> texts,
            java.time.Duration wait) {
        List<String> mine = new ArrayList<>();
        List<java.util.concurrent.CompletableFuture<float[]>> all = new ArrayList<>();
        for (String text : texts.stream().distinct().toList()) {
            java.util.concurrent.CompletableFuture<float[]> created = new java.util.concurrent.CompletableFuture<>();
            java.util.concurrent.CompletableFuture<float[]> f = cache.byModelAndText().putIfAbsent(prefix + text, created);
            if (f == null) {
                mine.add(text);
                f = created;
            } else if (f.isCompletedExceptionally()) {
                // an earlier attempt failed (model down then): this question tries again
                cache.byModelAndText().replace(prefix + text, f, created);
                mine.add(text);
                f = created;
            }
            all.add(f);
        }
        if (!mine.isEmpty()) {
            Runnable work = () -> {
                try {
                    List<float[]> embedded = model.embedAll(mine);
                    for (int i = 0; i < mine.size(); i++) {
                        cache.byModelAndText().get(prefix + mine.get(i)).complete(embedded.get(i));
                    }
                } catch (RuntimeException e) {
                    for (String text : mine) {
                        cache.byModelAndText().get(prefix + text).completeExceptionally(e);
                    }
                    if (wait == null) {
                        throw e;
                    }
                }
            };
            if (wait == null) {
                work.run();
            } else {
                // bounded: the inference goes on beside the question, which waits at most `wait` for it
                Thread.ofVirtual().name("faq-answer-vectors").start(work);
            }
        }
        try {
            java.util.concurrent.CompletableFuture<Void> every =
                java.util.concurrent.CompletableFuture.allOf(all.toArray(java.util.concurrent.CompletableFuture[]::new));
            if (wait == null) {
                every.join();
            } else {
                every.get(wait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            }
            return true;
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException
                | java.util.concurrent.CompletionException e) {
            if (wait == null && e instanceof java.util.concurrent.CompletionException c
                    && c.getCause() instanceof RuntimeException r) {
                throw r;
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** How long a question waits for answer vectors being computed elsewhere (then ranks without them). */
    public FaqAnswerFinder answerVectorWait(java.time.Duration wait) {
        if (wait == null || wait.isNegative()) {
            throw new IllegalArgumentException("answer-vector-wait must be zero or more");
        }
        this.answerVectorWait = wait;
        return this;
    }

    /** The vector cache of this snapshot version (a new version starts an empty one and warms its answers). */
    private TextVectors vectorsFor(FaqSnapshot snapshot) {
        TextVectors v = vectors;
        if (v.version() != snapshot.version()) {
            synchronized (this) {
                v = vectors;
                if (v.version() != snapshot.version()) {
                    v = new TextVectors(snapshot.version());
                    vectors = v;
                    startWarmUp(snapshot, v);
                }
            }
        }
        return v;
    }

    /**
     * Embeds the answers of the current snapshot in the background (each with the model of its own script), so
     * questions find them ready. Called at start-up and on every new snapshot version; idempotent per version.
     */
    public void warmAnswers() {
        FaqSnapshot snapshot = snapshots.current();
        if (snapshot != null && snapshot.size() > 0) {
            vectorsFor(snapshot);
        }
    }

    /** Texts per warm-up batch: small, so that questions' own inferences interleave with it on the model. */
    private static final int WARM_UP_BATCH = 8;

    /**
     * Waits (at most {@code max}) until the current snapshot's answers have their vectors, so that an evaluation
     * measures the ranking every question gets once warm, not a cold start. True when they are ready.
     */
    public boolean awaitAnswerVectors(java.time.Duration max) {
        FaqSnapshot snapshot = snapshots.current();
        if (snapshot == null || snapshot.size() == 0) {
            return true;
        }
        try {
            vectorsFor(snapshot).warmed().get(max.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void startWarmUp(FaqSnapshot snapshot, TextVectors cache) {
        if (snapshot.size() == 0 || answerWeightZero()) {
            cache.warmed().complete(null);
            return;
        }
        Thread.ofVirtual().name("faq-answer-warm-up-" + snapshot.version()).start(() -> {
            try {
                warm(snapshot, cache);
            } finally {
                cache.warmed().complete(null);
            }
        });
    }

    private void warm(FaqSnapshot snapshot, TextVectors cache) {
        {
            Map<Embedder, List<String>> byModel = new LinkedHashMap<>();
            for (FaqEntry entry : snapshot.entries()) {
                String answer = entry.answer();
                if (answer == null || answer.isBlank()) {
                    continue;
                }
                Embedder model = englishRoute(answer) ? english : embedder;
                byModel.computeIfAbsent(model, m -> new ArrayList<>()).add(answer);
            }
            for (Map.Entry<Embedder, List<String>> e : byModel.entrySet()) {
                List<String> answers = e.getValue().stream().distinct().toList();
                String prefix = e.getKey().modelId() + "\u0000";
                for (int from = 0; from < answers.size() && vectors == cache; from += WARM_UP_BATCH) {
                    try {
                        embed(e.getKey(), prefix, cache, answers.subList(from, Math.min(answers.size(),
                            from + WARM_UP_BATCH)), null);
                    } catch (RuntimeException failed) {
                        return;  // the model is down: questions embed what they need when it is back
                    }
                }
            }
        }
    }

    private boolean answerWeightZero() {
        return main.answerWeight() == 0 && (english == null || englishRoute.answerWeight() == 0);
    }

    private List<FaqMatch> snapshotMatches(FaqSnapshot snapshot, String question, RetrievalPlan plan, int pool) {
        if (question == null || question.isBlank() || snapshot.size() == 0) {
            return List.of();
        }
        float[] vector;
        try {
            vector = embedder.embed(question);
        } catch (RuntimeException e) {
            vector = null; // keywords alone
        }
        return snapshots.match(snapshot, question, vector, pool, plan.category(), Instant.now());
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
        return snapshot.entry(key);
    }
}
