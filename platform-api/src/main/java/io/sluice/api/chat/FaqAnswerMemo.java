package io.sluice.api.chat;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import io.sluice.knowledge.chain.RetrievalPlan;

/**
 * F1 answers kept per question. Finding the FAQ entry for a question (embedding, the vector and BM25 searches,
 * the snapshot match, the ranking) costs far more than answering from the entry, and customers ask the same
 * questions again and again; an F1 answer depends only on the question, the relevance bars in service and the
 * knowledge, so it is kept under all three. Any change to the knowledge this instance can see (a new FAQ snapshot,
 * a commit to the local index) makes every kept answer stale at once; a change made on another instance reaches
 * the shared vector store before this instance's snapshot, so answers are also kept at most {@code ttl}. A
 * result found while a tier was down is not kept (it says what the knowledge could give then).
 */
public final class FaqAnswerMemo {

    /** What an answer was found for: the question, the bars, and the knowledge as it stood. */
    record Key(String question, RetrievalPlan plan, long snapshotVersion, long indexGeneration) {
    }

    /** A found answer and what the answer metrics need of it. */
    public record Remembered(Answer answer, String language, boolean answered) {
    }

    /** Keeps nothing (tests, {@code size: 0}). */
    public static final FaqAnswerMemo OFF = new FaqAnswerMemo(0, Duration.ofSeconds(1), () -> 0, () -> 0);

    private final Cache<Key, Remembered> answers;
    private final LongSupplier snapshotVersion;
    private final LongSupplier indexGeneration;

    /**
     * @param size            questions kept (least recently used go first); 0 keeps none
     * @param ttl             longest an answer is kept
     * @param snapshotVersion the FAQ snapshot in service
     * @param indexGeneration the local knowledge index's commits
     */
    public FaqAnswerMemo(int size, Duration ttl, LongSupplier snapshotVersion, LongSupplier indexGeneration) {
        this(size, ttl, snapshotVersion, indexGeneration, Ticker.systemTicker());
    }

    /** @param clock the time source of expiry (tests) */
    FaqAnswerMemo(int size, Duration ttl, LongSupplier snapshotVersion, LongSupplier indexGeneration, Ticker clock) {
        this.answers = size <= 0 ? null : Caffeine.newBuilder().maximumSize(size).expireAfterWrite(ttl).ticker(clock)
            .recordStats().build();
        this.snapshotVersion = snapshotVersion;
        this.indexGeneration = indexGeneration;
    }

    /** Publishes hits, misses, size and evictions as {@code cache.*{cache="faq-answers"}}. */
    public FaqAnswerMemo bindTo(MeterRegistry meters) {
        if (answers != null) {
            CaffeineCacheMetrics.monitor(meters, answers, "faq-answers");
        }
        return this;
    }

    /**
     * The answer kept for this question under these bars and the current knowledge, else {@code find}'s (kept
     * unless {@code find} says it is degraded).
     */
    public Remembered answer(String question, RetrievalPlan plan, Supplier<Found> find) {
        if (answers == null) {
            return find.get().remembered();
        }
        Key key = new Key(question, plan, snapshotVersion.getAsLong(), indexGeneration.getAsLong());
        Remembered kept = answers.getIfPresent(key);
        if (kept != null) {
            return kept;
        }
        Found found = find.get();
        if (!found.degraded()) {
            answers.put(key, found.remembered());
        }
        return found.remembered();
    }

    /** What a fresh search gave: the answer, and whether a tier was missing from it. */
    public record Found(Remembered remembered, boolean degraded) {
    }

    /** Questions kept now (tests). */
    public long size() {
        if (answers == null) {
            return 0;
        }
        answers.cleanUp();
        return answers.estimatedSize();
    }
}
