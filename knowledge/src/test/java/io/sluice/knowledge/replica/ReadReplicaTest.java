package io.sluice.knowledge.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.support.TestDatabase;
import io.sluice.knowledge.vector.PgVectorSearcher;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Reads through {@link ReadDatabase} against a real streaming replica ({@code SLUICE_DB_READ_URL}, made by
 * scripts/pg-replica.sh with pg_basebackup -R from the primary of SLUICE_DB_URL): the replica serves reads and
 * keeps serving them with the primary down; with the replica down the primary does.
 */
class ReadReplicaTest {

    private final String table = "replica_probe_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private final JdbcTemplate primary = new JdbcTemplate(TestDatabase.get());

    @AfterEach
    void drop() {
        primary.execute("DROP TABLE IF EXISTS " + table);
    }

    private static DataSource replica() {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setUrl(System.getenv("SLUICE_DB_READ_URL"));
        return ds;
    }

    private static boolean inRecovery(DataSource ds) {
        return Boolean.TRUE.equals(new JdbcTemplate(ds).queryForObject("SELECT pg_is_in_recovery()", Boolean.class));
    }

    @Test
    @EnabledIfEnvironmentVariable(named = "SLUICE_DB_READ_URL", matches = ".+")
    void theReplicaServesReadsAndKeepsServingThemWithThePrimaryDown() {
        primary.execute("CREATE TABLE " + table + " (answer text)");
        primary.update("INSERT INTO " + table + " VALUES ('replicated')");
        assertThat(inRecovery(replica())).as("a hot standby, not the primary").isTrue();
        // streamed from the primary
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> "replicated".equals(
            new JdbcTemplate(replica()).queryForObject("SELECT answer FROM " + table, String.class)));

        ReadDatabase reads = new ReadDatabase(replica(), TestDatabase.get(), Duration.ofSeconds(10));
        assertThat(inRecovery(reads.dataSource())).as("reads go to the replica").isTrue();

        ReadDatabase primaryDown = new ReadDatabase(replica(), TestDatabase.down(), Duration.ofSeconds(10));
        assertThat(new JdbcTemplate(primaryDown.dataSource()).queryForObject("SELECT answer FROM " + table, String.class))
            .isEqualTo("replicated");
        // retrieval itself (pgvector over the replicated schema) answers with the primary down
        List<Passage> passages = new PgVectorSearcher(primaryDown.dataSource(), 40)
            .search(new float[512], new SearchFilter(null, java.time.Instant.now()), 3);
        assertThat(passages).isNotNull();
        assertThat(primaryDown.connectionsFromPrimary()).isZero();
        assertThat(primaryDown.connectionsFromReplica()).isPositive();
    }

    @Test
    void withTheReplicaDownThePrimaryServesAndTheReplicaIsSkippedUntilTheRecheck() {
        primary.execute("CREATE TABLE " + table + " (answer text)");
        primary.update("INSERT INTO " + table + " VALUES ('on the primary')");
        ReadDatabase reads = new ReadDatabase(TestDatabase.down(), TestDatabase.get(), Duration.ofMinutes(1));
        JdbcTemplate jdbc = new JdbcTemplate(reads.dataSource());
        assertThat(jdbc.queryForObject("SELECT answer FROM " + table, String.class)).isEqualTo("on the primary");
        assertThat(reads.replicaDown()).isTrue();
        assertThat(jdbc.queryForObject("SELECT answer FROM " + table, String.class)).isEqualTo("on the primary");
        assertThat(reads.connectionsFromPrimary()).isEqualTo(2);
        assertThat(inRecovery(reads.dataSource())).isFalse();
    }
}
