package io.sluice.api.chat;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Where SSE chat streams run: one virtual thread per stream, at most {@code maxStreams} at once.
 * A stream spends nearly all its life waiting (admission, the provider's next token), which on a
 * virtual thread pins no platform thread; the cap is a safety bound on open streams (each holds a
 * client and a provider socket), not a thread-pool size. Metric: {@code sluice.chat.streams.active}.
 */
public final class ChatStreamWorkers implements AutoCloseable {

    private final Semaphore slots;
    private final int maxStreams;
    private final ExecutorService threads = Executors.newThreadPerTaskExecutor(
        Thread.ofVirtual().name("sluice-chat-stream-", 0).factory());

    public ChatStreamWorkers(int maxStreams, MeterRegistry meters) {
        if (maxStreams < 1) {
            throw new IllegalArgumentException("maxStreams must be at least 1");
        }
        this.maxStreams = maxStreams;
        this.slots = new Semaphore(maxStreams);
        Gauge.builder("sluice.chat.streams.active", this, ChatStreamWorkers::active)
            .description("SSE chat streams being answered on this instance").register(meters);
    }

    /**
     * Starts {@code work} on a virtual thread of its own.
     *
     * @throws RejectedExecutionException when {@code maxStreams} streams are open already
     */
    public Future<?> submit(Runnable work) {
        if (!slots.tryAcquire()) {
            throw new RejectedExecutionException("at most " + maxStreams + " open chat streams");
        }
        // the slot comes back when the task is done in any way, including a cancel before it ever ran (a
        // client that went away at once): a release in the task's own finally would leak the slot then
        FutureTask<Void> task = new FutureTask<>(work, null) {
            @Override
            protected void done() {
                slots.release();
            }
        };
        try {
            threads.execute(task);
        } catch (RejectedExecutionException e) {
            slots.release();
            throw e;
        }
        return task;
    }

    /** Runs a short task (a heartbeat write) on a virtual thread, outside the stream cap. */
    public void execute(Runnable task) {
        threads.execute(task);
    }

    /** Streams being answered now. */
    public int active() {
        return maxStreams - slots.availablePermits();
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
