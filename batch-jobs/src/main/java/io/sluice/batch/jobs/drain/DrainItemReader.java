package io.sluice.batch.jobs.drain;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

import io.sluice.batch.queue.ClaimedItem;
import io.sluice.batch.queue.LeaseKeeper;
import io.sluice.batch.queue.WorkQueue;
import io.sluice.governance.gateway.LlmGateway;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamException;
import org.springframework.batch.infrastructure.item.ItemStreamReader;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Reads the drain step's items by claiming them from the work queue, a chunk's worth at a time, under
 * this step execution's own owner name ({@code <worker>/exec-<id>}).
 *
 * <ul>
 * <li>When nothing is ready but something becomes due within {@code linger} (a backoff ending, another
 * worker's lease expiring), it waits for it; otherwise it ends the step.</li>
 * <li>It ends at once, leaving the queue untouched, when no usable LLM gateway exists (exit status
 * NOOP), and when the run was asked to stop.</li>
 * <li>While the step runs, the {@link LeaseKeeper} renews the leases of everything the owner holds, so an
 * item that takes longer than one lease is not taken by another worker while this one is alive.</li>
 * <li>{@link #close()} gives back whatever the owner still holds (a failed chunk, unread claims), so a
 * restart continues from the last committed chunk without waiting for leases to expire. The number
 * of items taken is kept in the step's execution context and continues across restarts.</li>
 * </ul>
 */
public class DrainItemReader implements ItemStreamReader<ClaimedItem>, StepExecutionListener {

    static final String TAKEN_KEY = "drain.taken";
    static final String LIMIT_REACHED_KEY = "drain.limitReached";
    public static final String NOOP = "NOOP";

    private static final Logger log = LoggerFactory.getLogger(DrainItemReader.class);
    private static final java.util.concurrent.atomic.AtomicBoolean WARNED_IDLE = new java.util.concurrent.atomic.AtomicBoolean();

    private final WorkQueue queue;
    private final LeaseKeeper leases;
    private final ObjectProvider<LlmGateway> gateway;
    private final String queueName;
    private final long maxItems;
    private final int chunkSize;
    private final Duration lease;
    private final Duration linger;
    private final Duration pollInterval;
    private final String workerId;

    private final Deque<ClaimedItem> buffer = new ArrayDeque<>();
    private StepExecution stepExecution;
    private String owner;
    private LeaseKeeper.Hold hold;
    private long taken;
    private int readsThisChunk;
    private boolean idle;

    public DrainItemReader(WorkQueue queue, LeaseKeeper leases, ObjectProvider<LlmGateway> gateway, String queueName, long maxItems,
            int chunkSize, Duration lease, Duration linger, Duration pollInterval, String workerId) {
        this.queue = queue;
        this.leases = leases;
        this.gateway = gateway;
        this.queueName = queueName;
        this.maxItems = maxItems;
        this.chunkSize = chunkSize;
        this.lease = lease;
        this.linger = linger;
        this.pollInterval = pollInterval;
        this.workerId = workerId;
    }

    @Override
    public void beforeStep(StepExecution execution) {
        this.stepExecution = execution;
    }

    @Override
    public void open(ExecutionContext context) throws ItemStreamException {
        // continues across restarts (step context) and across passes of one run (job context)
        ExecutionContext jobContext = stepExecution != null ? stepExecution.getJobExecution().getExecutionContext() : null;
        taken = context.containsKey(TAKEN_KEY) ? context.getLong(TAKEN_KEY)
            : jobContext != null && jobContext.containsKey(TAKEN_KEY) ? jobContext.getLong(TAKEN_KEY) : 0;
        readsThisChunk = 0;
        long executionId = stepExecution != null ? stepExecution.getJobExecutionId() : System.nanoTime();
        owner = workerId + "/exec-" + executionId;
        if (leases != null && hold == null) {
            hold = leases.hold(owner, lease);
        }
        LlmGateway llm = gateway.getIfAvailable();
        idle = llm == null || !llm.available();
        if (idle && !WARNED_IDLE.getAndSet(true)) {
            log.warn("work-queue drain on queue '{}': no LLM gateway {}; leaving the queue untouched (runs end as NOOP"
                + " until one is)", queueName, llm == null ? "is configured" : "is available");
        } else if (idle) {
            log.debug("work-queue drain on queue '{}': no usable LLM gateway, NOOP", queueName);
        }
    }

    @Override
    public ClaimedItem read() throws InterruptedException {
        if (idle || (maxItems > 0 && taken >= maxItems)) {
            return null;
        }
        if (buffer.isEmpty() && !fill()) {
            return null;
        }
        taken++;
        readsThisChunk++;
        return buffer.poll();
    }

    /**
     * Claims the next batch. When nothing is claimable: at the start of a chunk it waits for items due
     * within {@code linger}; in the middle of a chunk it ends the pass, because this chunk's own items
     * may still be put back for retry, which only happens when the chunk is written (the
     * {@link DrainDecider} then starts another pass).
     */
    private boolean fill() throws InterruptedException {
        while (!stopRequested()) {
            int want = (int) (maxItems > 0 ? Math.min(chunkSize - readsThisChunk, maxItems - taken)
                : chunkSize - readsThisChunk);
            buffer.addAll(queue.claim(queueName, Math.max(1, want), owner, lease));
            if (!buffer.isEmpty()) {
                return true;
            }
            if (readsThisChunk > 0) {
                return false;
            }
            Optional<Duration> due = queue.nextDue(queueName, owner);
            if (due.isEmpty() || due.get().compareTo(linger) > 0) {
                return false;
            }
            Thread.sleep(Math.max(1, Math.min(due.get().toMillis(), pollInterval.toMillis())));
        }
        return false;
    }

    private boolean stopRequested() {
        return stepExecution != null && stepExecution.isTerminateOnly();
    }

    @Override
    public void update(ExecutionContext context) {
        // called when a chunk commits
        context.putLong(TAKEN_KEY, taken);
        readsThisChunk = 0;
    }

    @Override
    public void close() {
        buffer.clear();
        if (hold != null) {
            hold.close();
            hold = null;
        }
        if (owner != null) {
            int released = queue.releaseAll(owner);
            if (released > 0) {
                log.info("work-queue drain {} gave back {} unfinished item(s)", owner, released);
            }
        }
    }

    @Override
    public ExitStatus afterStep(StepExecution execution) {
        execution.getJobExecution().getExecutionContext().putLong(TAKEN_KEY, taken);
        if (maxItems > 0 && taken >= maxItems) {
            execution.getExecutionContext().putString(LIMIT_REACHED_KEY, "true");
        }
        if (idle) {
            return new ExitStatus(NOOP, "no LLM gateway available: the queue was left untouched");
        }
        return null;
    }

    String owner() {
        return owner;
    }
}
