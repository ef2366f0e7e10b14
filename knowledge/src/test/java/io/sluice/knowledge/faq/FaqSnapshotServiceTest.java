package io.sluice.knowledge.faq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.support.SharedEmbedder;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaqSnapshotServiceTest {

    @TempDir
    Path dir;

    private final Embedder embedder = SharedEmbedder.get();

    private static FaqEntry entry(long id, String key, String q, String p, String a) {
        return new FaqEntry(id, key, q, List.of(p), a, "orders", List.of(), null, null, null);
    }

    private static final List<FaqEntry> V1 = List.of(
        entry(1, "a", "怎么取消订单？", "订单不想要了", "未发货可在我的订单中取消。"),
        entry(2, "b", "运费怎么算？", "邮费多少", "满 99 元包邮。"));

    @Test
    void buildValidatePublishAndReloadFromDisk() {
        FaqSnapshotService service = new FaqSnapshotService(dir, embedder, () -> null, 0.9);
        FaqSnapshot s = service.build(V1);
        assertThat(service.validate(s).ok()).isTrue();
        service.publish(s);
        assertThat(service.current().version()).isEqualTo(s.version());
        assertThat(service.current().match("邮费要多少钱", embedder.embed("邮费要多少钱"), 1, null, Instant.now()))
            .extracting(m -> m.entry().key()).containsExactly("b");

        FaqSnapshotService restarted = new FaqSnapshotService(dir, embedder, () -> null, 0.9);
        assertThat(restarted.current().version()).isEqualTo(s.version());
        assertThat(restarted.current().checksum()).isEqualTo(s.checksum());
        assertThat(restarted.current().entries()).isEqualTo(s.entries());
    }

    @Test
    void aDamagedFileFallsBackToTheNewestIntactVersion() throws Exception {
        FaqSnapshotService service = new FaqSnapshotService(dir, embedder, () -> null, 0.9);
        FaqSnapshot first = service.build(V1);
        service.publish(first);
        FaqSnapshot second = service.build(List.of(V1.get(0), V1.get(1),
            entry(3, "c", "怎么开发票？", "要发票", "订单完成后申请开票。")));
        service.publish(second);
        Path file = dir.resolve(FaqSnapshotService.fileName(second.version()));
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x55;
        Files.write(file, bytes);
        FaqSnapshotService restarted = new FaqSnapshotService(dir, embedder, () -> null, 0.9);
        assertThat(restarted.current().version()).isEqualTo(first.version());
        assertThatThrownBy(() -> restarted.loadVersion(second.version())).hasMessageContaining("checksum");
    }

    @Test
    void anInvalidSnapshotIsRejectedAndTheCurrentOneKeepsAnswering() {
        FaqSnapshotService service = new FaqSnapshotService(dir, embedder, () -> null, 0.9);
        FaqSnapshot good = service.build(V1);
        service.publish(good);
        FaqSnapshot empty = service.build(List.of());
        assertThat(service.validate(empty).problems()).contains("snapshot has no entries");
        assertThatThrownBy(() -> service.publish(empty)).hasMessageContaining("rejected");
        assertThat(service.current().version()).isEqualTo(good.version());
    }

    @Test
    void rollBackToAnEarlierVersion() {
        FaqSnapshotService service = new FaqSnapshotService(dir, embedder, () -> null, 0.9);
        FaqSnapshot first = service.build(V1);
        service.publish(first);
        service.publish(service.build(List.of(V1.get(0))));
        assertThat(service.versionsOnDisk()).hasSize(2);
        service.publishVersion(first.version());
        assertThat(service.current().size()).isEqualTo(2);
    }

    @Test
    void publishingSwapsAtomicallyReadersSeeOneWholeSnapshot() throws Exception {
        FaqSnapshotService service = new FaqSnapshotService(dir, embedder, () -> null, 0.0);
        FaqSnapshot small = service.build(List.of(V1.get(0)));
        FaqSnapshot large = service.build(V1);
        service.publish(large);
        service.publish(small);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> problem = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            while (!stop.get()) {
                FaqSnapshot s = service.current();
                int expected = s.version() == small.version() ? 1 : 2;
                if (s.size() != expected || s.match("取消订单", null, 5, null, null).isEmpty()) {
                    problem.set("inconsistent snapshot v" + s.version());
                }
            }
        });
        reader.start();
        for (int i = 0; i < 20; i++) {
            service.publishVersion(i % 2 == 0 ? large.version() : small.version());
        }
        stop.set(true);
        reader.join();
        assertThat(problem.get()).isNull();
    }

    @Test
    void validityWindowAndCategoryFilterMatches() {
        FaqSnapshotService service = new FaqSnapshotService(dir, embedder, () -> null, 0.0);
        FaqEntry expired = new FaqEntry(9, "old", "双十一定金能退吗？", List.of("定金退不退"), "不退。", "coupons", List.of(),
            null, Instant.parse("2020-01-01T00:00:00Z"), null);
        FaqSnapshot s = service.build(List.of(expired, V1.get(0)));
        assertThat(s.match("定金退不退", null, 5, null, Instant.now())).noneMatch(m -> m.entry().key().equals("old"));
        assertThat(s.match("定金退不退", null, 5, null, Instant.parse("2019-06-01T00:00:00Z")))
            .anyMatch(m -> m.entry().key().equals("old"));
        assertThat(s.match("取消订单", null, 5, "payments", null)).isEmpty();
    }
}
