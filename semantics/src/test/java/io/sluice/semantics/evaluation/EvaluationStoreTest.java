package io.sluice.semantics.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;

import io.sluice.knowledge.support.TestDatabase;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import tools.jackson.databind.ObjectMapper;

class EvaluationStoreTest {

    final EvaluationStore store = new EvaluationStore(new JdbcTemplate(TestDatabase.get()), new ObjectMapper());
    final String kind = "test-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void theLatestReportOfAKindComesBackWithItsFigures() {
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        store.save(new EvaluationReport(kind, 10, Map.of("accuracy", 0.5), "{}", 0, at.minusSeconds(60)), "op", "a.csv");
        store.save(new EvaluationReport(kind, 300, Map.of("accuracy", 0.93, "s-to-b-rate", 0.01),
            "{\"confusion\":[[1]]}", 3, at), "op", "b.jsonl");

        assertThat(store.latest(kind)).get().satisfies(r -> {
            assertThat(r.items()).isEqualTo(300);
            assertThat(r.metrics()).containsEntry("accuracy", 0.93).containsEntry("s-to-b-rate", 0.01);
            assertThat(r.details()).contains("confusion");
            assertThat(r.modelVersion()).isEqualTo(3);
        });
        assertThat(store.recent(kind, 5)).hasSize(2);
        assertThat(store.latest("test-none")).isEmpty();
    }
}
