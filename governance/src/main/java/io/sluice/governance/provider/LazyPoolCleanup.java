package io.sluice.governance.provider;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import okhttp3.ConnectionPool;
import okhttp3.internal.concurrent.TaskRunner;
import okhttp3.internal.connection.RealConnectionPool;

/**
 * Runs the clean-up of the provider client's connection pools once a second instead of after every call.
 *
 * <p>OkHttp 4.12 schedules a pool's clean-up each time a call leaves its connection idle, and wakes its task
 * runner's thread for it: a thread wake-up per provider call, paid on the caller's side (the monitor's hand-off)
 * and on the runner's (4–8 % of the process's CPU by thread, docs/capacity.md). The clean-up only closes
 * connections idle past the keep-alive (minutes) or above the idle cap, so it loses nothing by waiting: this task
 * runner's backend never wakes its coordinator early, and the coordinator looks at its queue at least once
 * every {@link #PERIOD}. OkHttp offers no public hook for this; its {@code TaskRunner.Backend} and the pool's
 * constructor are public in its jar, and the provider client is the only place that uses them (OkHttp 4.12 is
 * pinned by the OpenAI client, so an upgrade that moves them fails the build, not a call).
 */
final class LazyPoolCleanup implements TaskRunner.Backend {

    /** The longest the clean-up waits past the time it was due. */
    static final Duration PERIOD = Duration.ofSeconds(1);

    private final ExecutorService threads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
        new SynchronousQueue<>(), Thread.ofPlatform().daemon().name("sluice-provider-pool-cleanup-", 0).factory());
    private final TaskRunner runner = new TaskRunner(this);

    /** A connection pool whose clean-up runs on this runner. */
    ConnectionPool newPool(int maxIdleConnections, Duration keepAlive) {
        return new ConnectionPool(new RealConnectionPool(runner, maxIdleConnections, keepAlive.toMillis(),
            TimeUnit.MILLISECONDS));
    }

    void shutdown() {
        threads.shutdown();
    }

    @Override
    public void beforeTask(TaskRunner taskRunner) {
        // nothing to prepare
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    /** Not woken early: a due clean-up waits for the coordinator's next look, at most {@link #PERIOD}. */
    @Override
    public void coordinatorNotify(TaskRunner taskRunner) {
        // deliberately nothing
    }

    /**
     * Called holding the runner's monitor, in the runner's own loop, which re-checks its queue after every wait.
     * An interrupt goes on to the runner as it is (OkHttp's own backend throws it too; the runner then cancels its
     * tasks): Java does not let this override declare it.
     */
    @Override
    public void coordinatorWait(TaskRunner taskRunner, long nanos) {
        long wait = Math.min(nanos, PERIOD.toNanos());
        if (wait > 0) {
            try {
                taskRunner.wait(wait / 1_000_000, (int) (wait % 1_000_000));
            } catch (InterruptedException e) {
                throw LazyPoolCleanup.<RuntimeException>rethrown(e);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T rethrown(Throwable e) throws T {
        throw (T) e;
    }

    @Override
    public void execute(Runnable runnable) {
        threads.execute(runnable);
    }
}
