package io.sluice.api.cache;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.semantics.pairs.HitReviews;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a sample of served L2 hits in the review queue on a background thread: the request never waits
 * for the database, and when the queue of writes is full the sample is dropped (it is only a sample).
 */
final class ReviewSampler implements RedisSemanticCache.ServedHitSink {

    private static final Logger log = LoggerFactory.getLogger(ReviewSampler.class);

    private final HitReviews reviews;
    private final ThreadPoolExecutor writer;
    private final Counter sampled;
    private final Counter dropped;

    ReviewSampler(HitReviews reviews, MeterRegistry meters) {
        this.reviews = reviews;
        this.writer = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(256), r -> {
            Thread t = new Thread(r, "sluice-cache-review");
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.AbortPolicy());
        this.writer.allowCoreThreadTimeOut(true);
        this.sampled = Counter.builder("sluice.cache.review.sampled").description("served L2 hits put in the review queue")
            .register(meters);
        this.dropped = Counter.builder("sluice.cache.review.dropped")
            .description("sampled hits not queued (writer busy or database down)").register(meters);
    }

    @Override
    public void served(String asked, String matched, double cosine, Double probability, String level, long modelVersion,
            Long clientId) {
        if (!reviews.sampled()) {
            return;
        }
        try {
            writer.execute(() -> {
                try {
                    reviews.record(asked, matched, cosine, probability, level, modelVersion, clientId);
                    sampled.increment();
                } catch (RuntimeException e) {
                    dropped.increment();
                    log.debug("could not queue a served hit for review: {}", e.toString());
                }
            });
        } catch (RejectedExecutionException e) {
            dropped.increment();
        }
    }
}
