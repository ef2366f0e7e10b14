package io.sluice.api.chat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Group commit: every caller waits until its own item is stored, as with one statement per item, but callers that
 * arrive while a write is under way are stored together by the next one. N concurrent callers then cost about one
 * statement instead of N — PostgreSQL's fixed work per statement (parse, executor start, transaction, round trip) was
 * most of what an answer cost the database. Nothing is held in memory after its caller returns, so a crash loses
 * nothing a caller was told was stored.
 *
 * <p>One write at a time; the caller that finds no write under way writes what is queued (its own item among it), at
 * most {@code maxGroup} items per statement. A group that fails is written again one item per caller, on the caller's
 * own thread, so one bad item fails only its own caller and each caller sees its own error.
 *
 * <p>When the store is unreachable ({@code unreachable} says which failures mean that) nobody tries again: the group
 * and everyone queued behind it fail at once with that error, and for the next 5 s callers write on their own, side
 * by side, as without grouping. Otherwise, with the database down, each group would wait out the pool's connection
 * timeout in turn while the queue behind it grew.
 */
final class GroupWriter<T> {

    /** How long after the store was found unreachable callers write on their own instead of queueing. */
    static final long UNREACHABLE_BYPASS_NANOS = TimeUnit.SECONDS.toNanos(5);

    private enum State { QUEUED, WRITTEN, ALONE, FAILED }

    private static final class Pending<T> {
        final T item;
        State state = State.QUEUED; // guarded by the writer's lock
        RuntimeException failure; // guarded by the writer's lock; set with FAILED

        Pending(T item) {
            this.item = item;
        }
    }

    private final int maxGroup;
    private final Consumer<List<T>> writeGroup;
    private final Consumer<T> writeOne;
    private final Predicate<RuntimeException> unreachable;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition writeEnded = lock.newCondition();
    private final ArrayDeque<Pending<T>> queued = new ArrayDeque<>(); // guarded by lock
    private boolean writing; // guarded by lock
    private volatile long aloneUntil = System.nanoTime();

    GroupWriter(int maxGroup, Consumer<List<T>> writeGroup, Consumer<T> writeOne, Predicate<RuntimeException> unreachable) {
        if (maxGroup < 1) {
            throw new IllegalArgumentException("a group holds at least one item");
        }
        this.maxGroup = maxGroup;
        this.writeGroup = writeGroup;
        this.writeOne = writeOne;
        this.unreachable = unreachable;
    }

    /** Stores {@code item}, alone or with others; returns once it is stored, throws what storing it threw. */
    void write(T item) {
        if (System.nanoTime() - aloneUntil < 0) {
            writeOne.accept(item); // the store was unreachable a moment ago: no queue in front of it
            return;
        }
        Pending<T> mine = new Pending<>(item);
        lock.lock();
        try {
            queued.add(mine);
            while (mine.state == State.QUEUED) {
                if (writing) {
                    writeEnded.awaitUninterruptibly(); // the write under way, or the next, takes this item along
                } else {
                    writeQueued();
                }
            }
        } finally {
            lock.unlock();
        }
        if (mine.state == State.FAILED) {
            throw mine.failure;
        }
        if (mine.state == State.ALONE) {
            writeOne.accept(item);
        }
    }

    /** Called holding the lock; writes one group without it, so others may queue meanwhile. */
    private void writeQueued() {
        List<Pending<T>> group = new ArrayList<>(Math.min(maxGroup, queued.size()));
        while (group.size() < maxGroup && !queued.isEmpty()) {
            group.add(queued.poll());
        }
        writing = true;
        State outcome = State.ALONE;
        RuntimeException failure = null;
        lock.unlock();
        try {
            List<T> items = new ArrayList<>(group.size());
            group.forEach(p -> items.add(p.item));
            writeGroup.accept(items);
            outcome = State.WRITTEN;
        } catch (RuntimeException e) {
            if (unreachable.test(e)) {
                outcome = State.FAILED;
                failure = e;
            }
            // otherwise each item is tried once more on its own, by its own caller, who then sees its own error
        } finally {
            lock.lock();
            writing = false;
            if (outcome == State.FAILED) {
                aloneUntil = System.nanoTime() + UNREACHABLE_BYPASS_NANOS;
                group.addAll(queued); // they would wait for the same unreachable store
                queued.clear();
            }
            for (Pending<T> p : group) {
                p.state = outcome;
                p.failure = failure;
            }
            writeEnded.signalAll();
        }
    }

    /** Items waiting for a write (tests). */
    int queued() {
        lock.lock();
        try {
            return queued.size();
        } finally {
            lock.unlock();
        }
    }
}
