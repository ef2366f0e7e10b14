package io.sluice.api.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Group commit: callers that arrive while a write is under way are stored together by the next write, each caller
 * returns only once its own item is stored, and a failed group is retried one item per caller.
 */
class GroupWriterTest {

    private static final Predicate<RuntimeException> NEVER_UNREACHABLE = e -> false;

    private final ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();
    private final List<List<Integer>> groups = new CopyOnWriteArrayList<>();
    private final List<Integer> alone = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        callers.shutdownNow();
    }

    @Test
    void callersArrivingDuringAWriteAreStoredTogetherByTheNextOne() throws Exception {
        CountDownLatch firstWriteMayEnd = new CountDownLatch(1);
        GroupWriter<Integer> writer = writerWhoseFirstWriteWaits(64, firstWriteMayEnd);

        List<CompletableFuture<Void>> calls = queueBehindAFirstWrite(writer, 20);
        assertThat(calls).as("nobody returns before its item is stored").noneMatch(CompletableFuture::isDone);
        firstWriteMayEnd.countDown();
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);

        assertThat(groups).hasSize(2);
        assertThat(groups.get(0)).containsExactly(0);
        assertThat(groups.get(1)).as("the twenty queued callers share one write")
            .containsExactlyInAnyOrderElementsOf(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20));
        assertThat(alone).isEmpty();
    }

    @Test
    void aGroupIsNeverLargerThanItsBoundAndEveryItemIsStoredOnce() throws Exception {
        CountDownLatch firstWriteMayEnd = new CountDownLatch(1);
        GroupWriter<Integer> writer = writerWhoseFirstWriteWaits(8, firstWriteMayEnd);

        List<CompletableFuture<Void>> calls = queueBehindAFirstWrite(writer, 30);
        firstWriteMayEnd.countDown();
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);

        assertThat(groups).allSatisfy(group -> assertThat(group).hasSizeLessThanOrEqualTo(8));
        assertThat(groups.stream().flatMap(List::stream).toList()).hasSize(31).doesNotHaveDuplicates();
        assertThat(groups).as("30 queued items in groups of at most 8, after the first write").hasSize(1 + 4);
    }

    /** A writer that records each group; its first write waits for {@code firstWriteMayEnd}. */
    private GroupWriter<Integer> writerWhoseFirstWriteWaits(int maxGroup, CountDownLatch firstWriteMayEnd) {
        return new GroupWriter<>(maxGroup, items -> {
            groups.add(List.copyOf(items));
            if (groups.size() == 1) {
                waitFor(firstWriteMayEnd);
            }
        }, alone::add, NEVER_UNREACHABLE);
    }

    /** Item 0 written (and held there by the writer), then items 1..{@code n} queued behind it; all n + 1 calls. */
    private List<CompletableFuture<Void>> queueBehindAFirstWrite(GroupWriter<Integer> writer, int n) {
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        calls.add(CompletableFuture.runAsync(() -> writer.write(0), callers));
        await().atMost(Duration.ofSeconds(10)).until(() -> groups.size() == 1);
        for (int i = 1; i <= n; i++) {
            int item = i;
            calls.add(CompletableFuture.runAsync(() -> writer.write(item), callers));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() == n);
        return calls;
    }

    @Test
    void aFailedGroupIsRetriedOneItemPerCallerAndOnlyTheBadItemFails() throws Exception {
        CountDownLatch firstWriteMayEnd = new CountDownLatch(1);
        AtomicBoolean blocking = new AtomicBoolean(true);
        GroupWriter<Integer> writer = new GroupWriter<>(64, items -> {
            if (blocking.getAndSet(false)) {
                waitFor(firstWriteMayEnd);
                groups.add(List.copyOf(items));
                return;
            }
            if (items.contains(13)) {
                throw new IllegalStateException("item 13 is refused");
            }
            groups.add(List.copyOf(items));
        }, item -> {
            if (item == 13) {
                throw new IllegalStateException("item 13 is refused");
            }
            alone.add(item);
        }, NEVER_UNREACHABLE);
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> writer.write(0), callers);
        await().atMost(Duration.ofSeconds(10)).until(() -> !blocking.get());
        List<CompletableFuture<Void>> later = new ArrayList<>();
        for (int i = 11; i <= 15; i++) {
            int item = i;
            later.add(CompletableFuture.runAsync(() -> writer.write(item), callers));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() == 5);
        firstWriteMayEnd.countDown();
        first.get(10, TimeUnit.SECONDS);

        for (int i = 0; i < later.size(); i++) {
            CompletableFuture<Void> call = later.get(i);
            if (i + 11 == 13) {
                assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).hasRootCauseMessage("item 13 is refused");
            } else {
                call.get(10, TimeUnit.SECONDS);
            }
        }
        assertThat(groups).containsExactly(List.of(0));
        assertThat(alone).containsExactlyInAnyOrder(11, 12, 14, 15);
    }

    @Test
    void anUnreachableStoreFailsTheGroupAndEveryoneQueuedAtOnceThenCallersWriteOnTheirOwn() throws Exception {
        CountDownLatch firstWriteMayEnd = new CountDownLatch(1);
        IllegalStateException down = new IllegalStateException("database unreachable");
        List<Integer> triedAlone = new CopyOnWriteArrayList<>();
        GroupWriter<Integer> writer = new GroupWriter<>(4, items -> {
            groups.add(List.copyOf(items));
            waitFor(firstWriteMayEnd);
            throw down;
        }, item -> {
            triedAlone.add(item);
            throw down;
        }, e -> e == down);
        List<CompletableFuture<Void>> calls = queueBehindAFirstWrite(writer, 10);

        firstWriteMayEnd.countDown();

        for (CompletableFuture<Void> call : calls) {
            assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).hasCause(down);
        }
        assertThat(groups).as("one write tried; the ten queued behind it failed with it, not in three more waits")
            .containsExactly(List.of(0));
        assertThat(triedAlone).as("and none of them tried again").isEmpty();
        assertThat(writer.queued()).isZero();

        assertThatThrownBy(() -> writer.write(99)).isSameAs(down);
        assertThat(triedAlone).as("a caller right after writes on its own, queueing behind nobody").containsExactly(99);
        assertThat(groups).hasSize(1);
    }

    @Test
    void aLoneCallerWritesItsOwnItemAtOnce() {
        GroupWriter<Integer> writer = new GroupWriter<>(64, items -> groups.add(List.copyOf(items)), alone::add,
            NEVER_UNREACHABLE);

        writer.write(7);
        writer.write(8);

        assertThat(groups).containsExactly(List.of(7), List.of(8));
        assertThat(writer.queued()).isZero();
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never let the write end");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
