package io.sluice.knowledge.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.sluice.knowledge.support.SharedEmbedder;

import org.junit.jupiter.api.Test;

class OnnxBgeEmbedderTest {

    private final Embedder embedder = SharedEmbedder.get();

    @Test
    void embedsChineseAndEnglishIntoUnitVectorsWhereParaphrasesAreCloser() {
        List<float[]> v = embedder.embedAll(List.of("退款多久到账", "钱什么时候退回来", "怎么修改收货地址"));
        assertThat(v).hasSize(3).allSatisfy(x -> assertThat(x).hasSize(512));
        assertThat(Vectors.dot(v.get(0), v.get(0))).isCloseTo(1f, org.assertj.core.data.Offset.offset(1e-3f));
        assertThat(Vectors.dot(v.get(0), v.get(1))).isGreaterThan(Vectors.dot(v.get(0), v.get(2)));
    }

    @Test
    void queryCacheReturnsTheSameVector() {
        float[] a = embedder.embed("how long does a refund take");
        float[] b = embedder.embed("how long does a refund take");
        assertThat(b).containsExactly(a);
        assertThat(((CachingEmbedder) ((NormalizingEmbedder) embedder).delegate()).cachedQueries()).isPositive();
    }
}
