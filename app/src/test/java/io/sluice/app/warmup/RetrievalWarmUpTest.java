package io.sluice.app.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;

import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.chain.RetrievalTier;
import io.sluice.knowledge.chain.TierKind;
import io.sluice.knowledge.chain.TierQuery;
import io.sluice.knowledge.embedding.Embedder;

import org.junit.jupiter.api.Test;

class RetrievalWarmUpTest {

    /** Records what it was asked; the vector tier of a cold store fails its first search. */
    static final class RecordingTier implements RetrievalTier {
        final String name;
        final TierKind kind;
        final boolean failsFirst;
        final List<String> asked = new ArrayList<>();

        RecordingTier(String name, TierKind kind, boolean failsFirst) {
            this.name = name;
            this.kind = kind;
            this.failsFirst = failsFirst;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public TierKind kind() {
            return kind;
        }

        @Override
        public List<Passage> search(TierQuery query, int k) {
            asked.add(query.text());
            if (failsFirst && asked.size() == 1) {
                throw new IllegalStateException("cold store");
            }
            return List.of();
        }
    }

    static final Embedder EMBEDDER = new Embedder() {
        @Override
        public int dimension() {
            return 2;
        }

        @Override
        public String modelId() {
            return "test";
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            return texts.stream().map(t -> new float[] {1, 0}).toList();
        }
    };

    @Test
    void everyTierIsSearchedForEachRouteAndAFailingTierDoesNotStopTheOthers() {
        RecordingTier vector = new RecordingTier("vector", TierKind.VECTOR, true);
        RecordingTier bm25 = new RecordingTier("bm25", TierKind.LEXICAL, false);
        RecordingTier faq = new RecordingTier("faq", TierKind.FAQ, false);
        RetrievalChain chain = new RetrievalChain(List.of(vector, bm25, faq), EMBEDDER, Executors.newSingleThreadExecutor(),
            3, Duration.ofSeconds(30));

        int searches = new RetrievalWarmUp(EMBEDDER, chain, new org.springframework.beans.factory.support.StaticListableBeanFactory().getBeanProvider(io.sluice.knowledge.answer.FaqAnswerFinder.class)).run();

        assertThat(vector.asked).hasSize(2);
        assertThat(bm25.asked).containsExactly("退款多久到账？", "How long does a refund take?");
        assertThat(faq.asked).hasSize(2);
        assertThat(searches).isEqualTo(5);
        assertThat(chain.breakerState("vector").name()).as("the warm-up trips no breaker").isEqualTo("CLOSED");
    }
}
