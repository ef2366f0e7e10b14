package io.sluice.api.chat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

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
 */
final class GroupWriter<T> {

    private enum State { QUEUED, WRITTEN, ALONE }

    private static final class Pending<T> {
        final T item;
        State state = State.QUEUED; // guarded by the writer's lock

        Pending(T item) {
            this.item = item;
        }
    }

    private final int maxGroup;
    private final Consumer<List<T>> writeGroup;
    private final Consumer<T> writeOne;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition writeEnded = lock.newCondition();
    private final ArrayDeque<Pending<T>> queued = new ArrayDeque<>(); // guarded by lock
    private boolean writing; // guarded by lock

    GroupWriter(int maxGroup, Consumer<List<T>> writeGroup, Consumer<T> writeOne) {
        if (maxGroup < 1) {
            throw new IllegalArgumentException("a group holds at least one item");
        }
        this.maxGroup = maxGroup;
        this.writeGroup = writeGroup;
        this.writeOne = writeOne;
    }

    /** Stores {@code item}, alone or with others; returns once it is stored, throws what storing it threw. */
    void write(T item) {
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
        lock.unlock();
        try {
            List<T> items = new ArrayList<>(group.size());
            group.forEach(p -> items.add(p.item));
            writeGroup.accept(items);
            outcome = State.WRITTEN;
        } catch (RuntimeException e) {
            // each item is tried once more on its own, by its own caller, who then sees its own error
        } finally {
            lock.lock();
            writing = false;
            for (Pending<T> p : group) {
                p.state = outcome;
            }
            writeEnded.signalAll();
        }
    }

    /** Items waiting for a write (tests, metrics). */
    int queued() {
        lock.lock();
        try {
            return queued.size();
        } finally {
            lock.unlock();
        }
    }
}
