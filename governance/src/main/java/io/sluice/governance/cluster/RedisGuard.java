package io.sluice.governance.cluster;

import java.time.Duration;
import java.util.function.Supplier;

import org.redisson.client.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs cluster-shared operations against Redis and switches to a local fallback when Redis is
 * unreachable: after one failure, Redis is skipped for {@code recheckAfter} so a dead Redis costs
 * one timeout, not one per call. Never fail open, never fail closed: the fallback is a local share.
 */
public final class RedisGuard {

    private static final Logger log = LoggerFactory.getLogger(RedisGuard.class);

    private final long recheckNanos;
    private volatile long downUntil;
    private volatile boolean down;
    private volatile long recoveries;

    public RedisGuard(Duration recheckAfter) {
        this.recheckNanos = recheckAfter.toNanos();
    }

    public <T> T call(Supplier<T> redis, Supplier<T> fallback) {
        if (down && System.nanoTime() - downUntil < 0) {
            return fallback.get();
        }
        try {
            T result = redis.get();
            if (down) {
                down = false;
                recoveries++;
                log.info("redis reachable again: cluster-wide limits are back");
            }
            return result;
        } catch (RedisException e) {
            markDown(e);
            return fallback.get();
        }
    }

    public void run(Runnable redis, Runnable fallback) {
        call(() -> {
            redis.run();
            return null;
        }, () -> {
            fallback.run();
            return null;
        });
    }

    /**
     * Fire-and-forget: starts {@code redis} unless Redis is known to be down (then runs
     * {@code fallback}); a failure later marks Redis down and runs {@code fallback}.
     */
    public void async(java.util.function.Consumer<java.util.function.Consumer<Throwable>> redis, Runnable fallback) {
        if (down && System.nanoTime() - downUntil < 0) {
            fallback.run();
            return;
        }
        try {
            redis.accept(error -> {
                if (error instanceof RedisException || error.getCause() instanceof RedisException) {
                    markDown(error);
                }
                fallback.run();
            });
        } catch (RedisException e) {
            markDown(e);
            fallback.run();
        }
    }

    private void markDown(Throwable e) {
        if (interrupted(e)) {
            // the calling thread was interrupted (shutdown, a cancelled call): Redis itself is fine
            Thread.currentThread().interrupt();
            return;
        }
        if (!down) {
            log.warn("redis unreachable ({}): using per-instance shares for {} ms", describe(e), recheckNanos / 1_000_000);
        }
        down = true;
        downUntil = System.nanoTime() + recheckNanos;
    }

    /** The message and, when Redisson wrapped one, the underlying cause ("Unexpected exception …" alone says nothing). */
    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e.getMessage())
            : e.getMessage() + ", caused by " + root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    private static boolean interrupted(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    /** Whether the last Redis operation failed (and the recheck time has not passed). */
    public boolean down() {
        return down;
    }

    /** How often Redis came back after being down (state kept in Redis may need re-initialising). */
    public long recoveries() {
        return recoveries;
    }
}
