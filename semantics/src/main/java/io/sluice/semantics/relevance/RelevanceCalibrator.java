package io.sluice.semantics.relevance;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.sluice.knowledge.answer.RelevanceThresholds;
import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.chain.RetrievalTier;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.chain.TierKind;
import io.sluice.knowledge.chain.TierQuery;
import io.sluice.knowledge.chain.Tiers;
import io.sluice.knowledge.embedding.Embedder;

/**
 * Calibrates the relevance bar of each retrieval tier from labelled FAQ queries and out-of-domain
 * questions. Every tier is searched on its own for each question (no hand-over), and a tier's bar is
 * set just below the scores its correct in-domain answers reach — the highest bar that still keeps
 * {@code 1 - maxInDomainLoss} of them — so everything scoring lower, where out-of-domain questions
 * land, is refused. A tier with too few correct answers to learn from keeps its current bar.
 */
public class RelevanceCalibrator {

    /** The bars calibrated separately (the English model has a wider score spread than BGE). */
    enum Bar { VECTOR, ENGLISH_VECTOR, BM25, FAQ }

    /** Fewer correct in-domain answers than this at a tier: its bar is not moved. */
    static final int MIN_SUPPORT = 5;

    private final RetrievalChain chain;
    private final Embedder embedder;
    private final double maxInDomainLoss;

    public RelevanceCalibrator(RetrievalChain chain, Embedder embedder, double maxInDomainLoss) {
        if (!(maxInDomainLoss >= 0 && maxInDomainLoss < 0.5)) {
            throw new IllegalArgumentException("max in-domain loss is a share in [0, 0.5)");
        }
        this.chain = chain;
        this.embedder = embedder;
        this.maxInDomainLoss = maxInDomainLoss;
    }

    /** New bars from the labelled queries; {@code current} gives the bars of tiers that cannot be learnt. */
    public RelevanceThresholds calibrate(List<LabelledQuery> queries, RelevanceThresholds current) {
        Map<Bar, List<Double>> correct = new EnumMap<>(Bar.class);
        Map<Bar, List<Double>> offTopic = new EnumMap<>(Bar.class);
        for (Bar b : Bar.values()) {
            correct.put(b, new ArrayList<>());
            offTopic.put(b, new ArrayList<>());
        }
        for (LabelledQuery q : queries) {
            probe(q.query()).forEach((bar, top) -> {
                if (!q.inDomain()) {
                    offTopic.get(bar).add(top.score());
                } else if (q.key().equals(top.source().faqKey())) {
                    correct.get(bar).add(top.score());
                }
            });
        }
        // BM25 answers only after the vector tiers found nothing, and its raw scores spread wide on off-topic
        // questions ("what is the ..."): it stays a margin above every off-topic question seen
        double bm25 = Math.max(current.bm25(), bar(correct.get(Bar.BM25), current.bm25()));
        if (offTopic.get(Bar.BM25).size() >= MIN_SUPPORT) {
            double max = offTopic.get(Bar.BM25).stream().mapToDouble(Double::doubleValue).max().orElse(0);
            bm25 = Math.max(bm25, Math.ceil(max * BM25_MARGIN * 100) / 100);
        }
        return new RelevanceThresholds(
            learned(correct.get(Bar.VECTOR), offTopic.get(Bar.VECTOR), current.vector()),
            learned(correct.get(Bar.ENGLISH_VECTOR), offTopic.get(Bar.ENGLISH_VECTOR), current.englishVector()),
            bm25,
            Math.min(1, learned(correct.get(Bar.FAQ), offTopic.get(Bar.FAQ), current.faq())));
    }

    /** The BM25 bar is this factor above the highest off-topic BM25 score. */
    static final double BM25_MARGIN = 1.1;

    /**
     * Halfway between where off-topic questions stop ({@link #OUT_OF_DOMAIN_QUANTILE} of their scores) and
     * where correct in-domain answers start (all but {@code maxInDomainLoss} of them score above); when the
     * two overlap, the in-domain side wins (answers are not sacrificed). Never looser than the configured
     * bar: calibration only tightens.
     */
    private double learned(List<Double> correct, List<Double> offTopic, double current) {
        double inDomain = bar(correct, current);
        double outOfDomain = above(offTopic, Double.NaN, 1000);
        double learned = Double.isNaN(outOfDomain) || outOfDomain >= inDomain ? inDomain
            : Math.floor((inDomain + outOfDomain) / 2 * 1000) / 1000;
        return Math.max(current, learned);
    }

    /** Just above the {@link #OUT_OF_DOMAIN_QUANTILE} of the scores ({@code otherwise} with too few). */
    private static double above(List<Double> scores, double otherwise, int scale) {
        if (scores.size() < MIN_SUPPORT) {
            return otherwise;
        }
        List<Double> sorted = new ArrayList<>(scores);
        sorted.sort(null);
        return Math.ceil(sorted.get((int) Math.floor((sorted.size() - 1) * OUT_OF_DOMAIN_QUANTILE)) * scale + 1e-9) / scale;
    }

    /** The bars sit above this share of the out-of-domain questions' best scores. */
    static final double OUT_OF_DOMAIN_QUANTILE = 0.95;

    private double bar(List<Double> scores, double current) {
        if (scores.size() < MIN_SUPPORT) {
            return current;
        }
        List<Double> sorted = new ArrayList<>(scores);
        sorted.sort(null);
        int drop = (int) Math.floor(sorted.size() * maxInDomainLoss);
        // a hair below the lowest kept score, rounded down so the stored bar reads cleanly
        return Math.floor((sorted.get(drop) - 1e-4) * 1000) / 1000;
    }

    /** The top hit of every tier searched on its own, by the bar it is measured against. */
    Map<Bar, Passage> probe(String question) {
        float[] vector;
        try {
            vector = embedder.embed(question);
        } catch (RuntimeException e) {
            vector = null;
        }
        TierQuery tq = new TierQuery(question, vector, new SearchFilter(null, Instant.now()));
        Map<Bar, Passage> top = new EnumMap<>(Bar.class);
        for (RetrievalTier tier : chain.tiers()) {
            if ((tier.kind() == TierKind.VECTOR && vector == null) || tier.skipReason(tq) != null) {
                continue;
            }
            List<Passage> found;
            try {
                found = tier.search(tq, 1);
            } catch (Exception e) {
                continue; // a tier that is down teaches nothing
            }
            if (found.isEmpty()) {
                continue;
            }
            Passage p = found.get(0);
            Bar bar = switch (tier.kind()) {
                case VECTOR -> Tiers.ENGLISH_VECTOR_PASSAGE.equals(p.tier()) ? Bar.ENGLISH_VECTOR : Bar.VECTOR;
                case LEXICAL -> Bar.BM25;
                case FAQ -> Bar.FAQ;
            };
            top.merge(bar, p, (a, b) -> a.score() >= b.score() ? a : b);
        }
        return top;
    }
}
