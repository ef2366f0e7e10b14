package io.sluice.knowledge.faq;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.support.SharedEmbedder;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The FAQ snapshot's English route (English-model vectors for Latin-script texts) and its file format. */
class FaqSnapshotEnglishTest {

    @TempDir
    Path dir;

    private final Embedder embedder = SharedEmbedder.get();
    private final Embedder english = SharedEmbedder.english();

    private static FaqEntry entry(long id, String key, String q, List<String> p, String a) {
        return new FaqEntry(id, key, q, p, a, "orders", List.of(), null, null, null);
    }

    private static final List<FaqEntry> FAQ = List.of(
        entry(1, "cancel", "怎么取消订单？", List.of("订单不想要了", "how do I cancel an order"), "未发货可在我的订单中取消。"),
        entry(2, "ship", "运费怎么算？", List.of("邮费多少", "how much is shipping"), "满 99 元包邮。"),
        entry(3, "refund", "退款多久到账？", List.of("钱什么时候退回来", "how long does a refund take"),
            "审核通过后 1-3 个工作日原路退回。"));

    @Test
    void latinQuestionsAreMatchedWithTheEnglishModelAndTheVectorsSurviveARestart() {
        FaqSnapshotService service = new FaqSnapshotService(dir, embedder, english, () -> null, 0.9);
        service.publish(service.build(FAQ));
        FaqSnapshot s = service.current();
        assertThat(s.hasEnglishVectors()).isTrue();
        assertThat(s.englishModelId()).isEqualTo(english.modelId());
        // Chinese texts carry no English vector
        assertThat(s.englishVectorUnsafe(0)).isNull();
        assertThat(s.englishVectorUnsafe(2)).isNotNull();

        String question = "what does delivery cost me";
        assertThat(s.usesEnglish(question, english.embed(question))).isTrue();
        List<FaqMatch> top = service.match(s, question, embedder.embed(question), 1, null, Instant.now());
        assertThat(top).extracting(m -> m.entry().key()).containsExactly("ship");
        assertThat(top.get(0).matched()).isEqualTo("how much is shipping");
        // a Chinese question still takes BGE
        assertThat(service.match(s, "退钱要等几天", embedder.embed("退钱要等几天"), 1, null, Instant.now()))
            .extracting(m -> m.entry().key()).containsExactly("refund");

        FaqSnapshotService restarted = new FaqSnapshotService(dir, embedder, english, () -> null, 0.9);
        FaqSnapshot loaded = restarted.current();
        assertThat(loaded.checksum()).isEqualTo(s.checksum());
        assertThat(loaded.hasEnglishVectors()).isTrue();
        assertThat(loaded.englishVectorUnsafe(2)).containsExactly(s.englishVectorUnsafe(2));
        assertThat(restarted.match(loaded, question, embedder.embed(question), 1, null, Instant.now()))
            .extracting(m -> m.entry().key()).containsExactly("ship");
    }

    @Test
    void withoutTheEnglishModelTheSameSnapshotFallsBackToTheMainModel() {
        FaqSnapshotService withEnglish = new FaqSnapshotService(dir, embedder, english, () -> null, 0.9);
        withEnglish.publish(withEnglish.build(FAQ));
        FaqSnapshotService without = new FaqSnapshotService(dir, embedder, () -> null, 0.9);
        FaqSnapshot s = without.current();
        String question = "how long until my money comes back";
        assertThat(s.usesEnglish(question, null)).isFalse();
        assertThat(without.match(s, question, embedder.embed(question), 3, null, Instant.now())).isNotEmpty();
    }

    @Test
    void version1FilesWithoutEnglishVectorsStillLoad() throws IOException {
        float[] v = embedder.embed("怎么取消订单？");
        float[] p = embedder.embed("订单不想要了");
        FaqEntry e = entry(7, "cancel", "怎么取消订单？", List.of("订单不想要了"), "未发货可在我的订单中取消。");
        Files.write(dir.resolve(FaqSnapshotService.fileName(42)), version1File(42, e, List.of(v, p)));

        FaqSnapshotService service = new FaqSnapshotService(dir, embedder, english, () -> null, 0.9);
        FaqSnapshot s = service.current();
        assertThat(s.version()).isEqualTo(42);
        assertThat(s.entries()).containsExactly(e);
        assertThat(s.hasEnglishVectors()).isFalse();
        assertThat(service.match(s, "cancel my order", embedder.embed("cancel my order"), 1, null, Instant.now()))
            .extracting(m -> m.entry().key()).containsExactly("cancel");
        // the next build adds the English vectors and writes the current format
        FaqSnapshot next = service.build(List.of(e));
        service.publish(next);
        assertThat(new String(Files.readAllBytes(dir.resolve(FaqSnapshotService.fileName(next.version()))), 0, 6,
            StandardCharsets.US_ASCII)).isEqualTo("SLFAQ2");
        assertThat(next.hasEnglishVectors()).isFalse(); // no Latin-script text in this entry
        assertThat(next.englishModelId()).isEqualTo(english.modelId());
    }

    /** The SLFAQ1 layout as the previous release wrote it. */
    private static byte[] version1File(long version, FaqEntry e, List<float[]> vectors) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.write("SLFAQ1".getBytes(StandardCharsets.US_ASCII));
        out.writeLong(version);
        out.writeLong(1_700_000_000_000L);
        str(out, SharedEmbedder.get().modelId());
        out.writeInt(vectors.get(0).length);
        out.writeInt(1);
        out.writeLong(e.id());
        str(out, e.key());
        str(out, e.question());
        str(out, e.answer());
        str(out, e.category());
        out.writeInt(0); // tags
        out.writeLong(Long.MIN_VALUE);
        out.writeLong(Long.MIN_VALUE);
        out.writeLong(Long.MIN_VALUE);
        out.writeInt(e.phrasings().size());
        for (String s : e.phrasings()) {
            str(out, s);
        }
        out.writeInt(vectors.size());
        for (float[] v : vectors) {
            for (float f : v) {
                out.writeFloat(f);
            }
        }
        out.flush();
        byte[] body = bytes.toByteArray();
        byte[] sum = HexFormat.of().parseHex(FaqSnapshotCodec.sha256(body));
        byte[] file = java.util.Arrays.copyOf(body, body.length + sum.length);
        System.arraycopy(sum, 0, file, body.length, sum.length);
        return file;
    }

    private static void str(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }
}
