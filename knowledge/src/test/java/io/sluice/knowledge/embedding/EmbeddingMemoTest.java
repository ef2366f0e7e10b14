package io.sluice.knowledge.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import org.junit.jupiter.api.Test;

/** Inference runs once per text and model in a process; a second embedder of the same model reuses it. */
class EmbeddingMemoTest {

    static final AtomicInteger INFERRED = new AtomicInteger();

    static final class CountingModel implements EmbeddingModel {
        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            INFERRED.addAndGet(segments.size());
            return Response.from(segments.stream()
                .map(s -> Embedding.from(new float[] {s.text().length(), 1f, 0f})).toList());
        }
    }

    static final class CountingEmbedder extends OnnxEmbedder {
        private final String id;

        CountingEmbedder(String id) {
            super(2, null, e -> new CountingModel(), 3, 100);
            this.id = id;
        }

        @Override
        public String modelId() {
            return id;
        }
    }

    @Test
    void aSecondEmbedderOfTheSameModelDoesNotInferTextsAlreadySeen() {
        String model = "counting-" + UUID.randomUUID();
        String a = "text a " + UUID.randomUUID();
        String b = "text b " + UUID.randomUUID();
        int before = INFERRED.get();

        List<float[]> first = new CountingEmbedder(model).embedAll(List.of(a, b, a));
        List<float[]> second = new CountingEmbedder(model).embedAll(List.of(b, a));

        assertThat(INFERRED.get() - before).as("a and b inferred once each").isEqualTo(2);
        assertThat(second.get(0)).containsExactly(first.get(1));
        assertThat(second.get(1)).containsExactly(first.get(0));
        assertThat(Vectors.dot(first.get(0), first.get(0))).isCloseTo(1f, org.assertj.core.data.Offset.offset(1e-5f));
    }

    @Test
    void anotherModelNeverGetsTheseVectors() {
        String text = "shared text " + UUID.randomUUID();
        new CountingEmbedder("model-x-" + UUID.randomUUID()).embedAll(List.of(text));
        int before = INFERRED.get();
        new CountingEmbedder("model-y-" + UUID.randomUUID()).embedAll(List.of(text));
        assertThat(INFERRED.get() - before).isEqualTo(1);
    }

    @Test
    void vectorsHandedOutAreCopies() {
        String model = "copies-" + UUID.randomUUID();
        String text = "copy me " + UUID.randomUUID();
        float[] v = new CountingEmbedder(model).embedAll(List.of(text)).get(0);
        v[0] = 42f;
        assertThat(new CountingEmbedder(model).embedAll(List.of(text)).get(0)[0]).isNotEqualTo(42f);
    }
}
