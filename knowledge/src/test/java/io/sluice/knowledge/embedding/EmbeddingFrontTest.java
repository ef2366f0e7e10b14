package io.sluice.knowledge.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.knowledge.support.SharedEmbedder;
import org.junit.jupiter.api.Test;

/** The front every caller embeds through: capitalised English and Traditional Chinese embed like their plain forms. */
class EmbeddingFrontTest {

    private final Embedder front = SharedEmbedder.get();
    private final Embedder raw = ((CachingEmbedder) ((NormalizingEmbedder) front).delegate()).delegate();

    @Test
    void capitalisedWordsNoLongerCollide() {
        // the defect: the model's vocabulary is lower case, so raw capitalised words became unknown tokens
        assertThat(cos(raw, "Cancel my order", "Track my order")).isGreaterThan(0.99);
        assertThat(cos(front, "Cancel my order", "Track my order")).isLessThan(0.95);
        assertThat(cos(front, "Refund", "Transfer")).isLessThan(0.95);
    }

    @Test
    void capitalisedAndTraditionalVariantsEmbedLikeTheirPlainForms() {
        assertThat(cos(front, "Cancel My Order", "cancel my order")).isGreaterThan(0.999);
        assertThat(cos(front, "我的信用卡被盜刷了", "我的信用卡被盗刷了")).isGreaterThan(0.999);
    }

    @Test
    void modelIdNamesTheNormalisation() {
        assertThat(front.modelId()).endsWith(NormalizingEmbedder.NORMALIZATION).startsWith(raw.modelId());
    }

    private static double cos(Embedder e, String a, String b) {
        return Vectors.dot(e.embed(a), e.embed(b));
    }
}
