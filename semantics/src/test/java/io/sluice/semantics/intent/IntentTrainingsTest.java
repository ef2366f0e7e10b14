package io.sluice.semantics.intent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import io.sluice.knowledge.support.TestDatabase;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** Two instances sharing the real PostgreSQL: one training in the cluster at a time, state visible to both. */
class IntentTrainingsTest {

    final JdbcTemplate jdbc = new JdbcTemplate(TestDatabase.get());
    final IntentTrainings onA = new IntentTrainings(jdbc, Duration.ofSeconds(60));
    final IntentTrainings onB = new IntentTrainings(jdbc, Duration.ofSeconds(60));

    @BeforeEach
    @AfterEach
    void noRunningTraining() {
        jdbc.update("UPDATE intent_training SET status = 'failed', finished_at = now() WHERE status = 'running'");
    }

    @Test
    void aTrainingRunningOnOneInstanceBlocksTheOtherAndBothSeeItsPhaseAndResult() {
        IntentTrainings.Training started = onA.start("alice", "node-a").orElseThrow();
        assertThat(started.status()).isEqualTo("running");

        assertThat(onB.start("bob", "node-b")).isEmpty();
        assertThat(onA.start("alice", "node-a")).isEmpty();

        onA.phase(started.id(), "embedding 5000 examples");
        IntentTrainings.Training seen = onB.current().orElseThrow();
        assertThat(seen.id()).isEqualTo(started.id());
        assertThat(seen.phase()).isEqualTo("embedding 5000 examples");
        assertThat(seen.instance()).isEqualTo("node-a");
        assertThat(seen.actor()).isEqualTo("alice");

        onA.done(started.id(), 7, true, "not worse", 5000);
        IntentTrainings.Training finished = onB.find(started.id()).orElseThrow();
        assertThat(finished.status()).isEqualTo("done");
        assertThat(finished.version()).isEqualTo(7);
        assertThat(finished.activated()).isTrue();
        assertThat(finished.examples()).isEqualTo(5000);
        assertThat(finished.finishedAt()).isNotNull();

        // the slot is free again, for any instance
        IntentTrainings.Training next = onB.start("bob", "node-b").orElseThrow();
        assertThat(onA.current().orElseThrow().id()).isEqualTo(next.id());
        onB.failed(next.id(), "the taxonomy has one intent");
        assertThat(onA.find(next.id()).orElseThrow().error()).isEqualTo("the taxonomy has one intent");
        assertThat(onA.recent(5)).extracting(IntentTrainings.Training::id).startsWith(next.id(), started.id());
    }

    @Test
    void aTrainingWhoseInstanceStoppedBeatingIsClosedAsAbandonedAndTheNextMayStart() {
        IntentTrainings.Training orphan = onA.start("alice", "node-a").orElseThrow();
        jdbc.update("UPDATE intent_training SET heartbeat_at = now() - interval '5 minutes' WHERE id = ?", orphan.id());

        IntentTrainings.Training next = onB.start("bob", "node-b").orElseThrow();

        IntentTrainings.Training closed = onB.find(orphan.id()).orElseThrow();
        assertThat(closed.status()).isEqualTo("failed");
        assertThat(closed.error()).contains("abandoned");
        assertThat(next.id()).isNotEqualTo(orphan.id());
        // a live heartbeat keeps a run's claim
        onB.heartbeat(next.id());
        assertThat(onA.start("alice", "node-a")).isEmpty();
        assertThat(onA.find(UUID.randomUUID())).isEmpty();
    }
}
