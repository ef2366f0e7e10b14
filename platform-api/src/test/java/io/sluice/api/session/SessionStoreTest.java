package io.sluice.api.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.logging.Logger;

import javax.sql.DataSource;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.knowledge.support.TestDatabase;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.springframework.jdbc.core.simple.JdbcClient;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The session store against real Redis and PostgreSQL: turns and facts in Redis; with Redis down, a session
 * this instance served continues from its in-memory digest (even with the database down too), and one it
 * never saw from PostgreSQL; a foreign user never continues someone else's session.
 */
class SessionStoreTest {

    final String prefix = "test:sessions-" + UUID.randomUUID() + ":";
    final ObjectMapper json = JsonMapper.builder().build();
    final SwitchableDataSource database = new SwitchableDataSource(TestDatabase.get());
    final JdbcClient jdbc = JdbcClient.create(database);
    final RedissonClient redisson = redisson();
    final SessionProperties properties = new SessionProperties(Duration.ofMinutes(5), 4, prefix);

    static RedissonClient redisson() {
        return Redisson.create(io.sluice.governance.cluster.RedisTopology.ofUrl(System.getenv("SLUICE_REDIS_URL"))
            .toConfig(3_000, 2_000, 0));
    }

    @AfterEach
    void close() {
        if (!redisson.isShutdown()) {
            redisson.getKeys().deleteByPattern(prefix + "*");
            redisson.shutdown();
        }
    }

    SessionStore store(SimpleMeterRegistry meters) {
        return new SessionStore(redisson, jdbc, json, properties, meters);
    }

    @Test
    void turnsAndFactsComeFromRedisAndAreTrimmedToTheLastTurns() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        SessionStore store = store(meters);
        UUID session = UUID.randomUUID();
        long client = client();
        exchangeAs(store, client, session, "u1", "订单 2023112233445 坏了", "我们会为您补发。",
            List.of(new SessionFact("promise", "我们会为您补发。", 1)));
        exchangeAs(store, client, session, "u1", "第二个问题", "第二个回答", List.of());
        exchangeAs(store, client, session, "u1", "第三个问题", "第三个回答", List.of());

        SessionContext opened = store(new SimpleMeterRegistry()).open(session, client, "u1");   // no digest: Redis

        assertThat(opened.continued()).isTrue();
        assertThat(opened.recentTurns()).extracting(Turn::content).containsExactly("第二个问题", "第二个回答", "第三个问题", "第三个回答");
        assertThat(opened.facts()).extracting(SessionFact::text).containsExactly("我们会为您补发。");
        assertThat(store(new SimpleMeterRegistry()).open(session, client, "someone-else").continued()).isFalse();
    }

    @Test
    void anAppendKeepsTheLastFactsAndRenewsTheTtlOfTurnsFactsAndOwner() {
        SessionProperties fewFacts = new SessionProperties(Duration.ofMinutes(5), 4, prefix, 2000, 200, 2, 3);
        SessionStore store = new SessionStore(redisson, jdbc, json, fewFacts, new SimpleMeterRegistry());
        UUID session = UUID.randomUUID();
        long client = client();
        exchangeAs(store, client, session, "u1", "一问", "一答", List.of(new SessionFact("entity", "甲", 1),
            new SessionFact("entity", "乙", 2), new SessionFact("entity", "丙", 3)));
        exchangeAs(store, client, session, "u1", "二问", "二答", List.of());

        SessionContext opened = new SessionStore(redisson, jdbc, json, fewFacts, new SimpleMeterRegistry())
            .open(session, client, "u1");
        assertThat(opened.recentTurns()).extracting(Turn::content).containsExactly("一问", "一答", "二问", "二答");
        assertThat(opened.facts()).as("trimmed to the last max-facts").extracting(SessionFact::text).containsExactly("乙", "丙");
        for (String key : List.of("turns", "facts", "owner")) {
            long ttl = redisson.getBucket(prefix + "{" + session + "}:" + key).remainTimeToLive();
            assertThat(ttl).as(key).isBetween(Duration.ofMinutes(4).toMillis(), Duration.ofMinutes(5).toMillis());
        }
    }

    @Test
    void withRedisDownASessionThisInstanceNeverSawIsReadFromPostgreSql() {
        SessionStore first = store(new SimpleMeterRegistry());
        UUID session = UUID.randomUUID();
        long client = client();
        exchangeAs(first, client, session, "u2", "一号问题", "一号回答", List.of(new SessionFact("order", "订单 order 778899001", 1)));
        exchangeAs(first, client, session, "u2", "二号问题", "二号回答", List.of());
        redisson.shutdown();                                        // Redis down
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        SessionStore other = store(meters);                         // e.g. another instance: no digest of it

        SessionContext opened = other.open(session, client, "u2");

        assertThat(opened.continued()).isTrue();
        assertThat(opened.recentTurns()).extracting(Turn::content).containsExactly("一号问题", "一号回答", "二号问题", "二号回答");
        assertThat(opened.facts()).extracting(SessionFact::text).containsExactly("订单 order 778899001");
        assertThat(meters.counter("sluice.session.reads", "source", "postgres").count()).isEqualTo(1);
        assertThat(meters.counter("sluice.session.redis.failures").count()).isGreaterThanOrEqualTo(1);
        assertThat(other.open(session, client, "intruder").continued()).as("PostgreSQL checks the owner").isFalse();
    }

    @Test
    void withRedisDownASessionThisInstanceServedContinuesFromItsDigestEvenWithoutTheDatabase() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        SessionStore store = store(meters);
        UUID session = UUID.randomUUID();
        long client = client();
        exchangeAs(store, client, session, "u3", "x".repeat(500), "长回答", List.of(new SessionFact("complaint", "耳机坏了", 1)));
        exchangeAs(store, client, session, "u3", "后来的问题", "后来的回答", List.of());
        redisson.shutdown();                                        // Redis down …
        database.target(TestDatabase.down());                       // … and PostgreSQL too

        SessionContext opened = store.open(session, client, "u3");

        assertThat(opened.continued()).isTrue();
        assertThat(opened.recentTurns()).hasSize(4);
        assertThat(opened.recentTurns().get(0).content()).as("compact: long turns are cut").hasSize(201).endsWith("…");
        assertThat(opened.recentTurns().get(3).content()).isEqualTo("后来的回答");
        assertThat(opened.facts()).extracting(SessionFact::text).containsExactly("耳机坏了");
        assertThat(meters.counter("sluice.session.reads", "source", "digest").count()).isEqualTo(1);

        // the turns of this exchange reach the digest though Redis is down: the next message sees them
        store.append(session, client, "u3", List.of(new Turn("USER", "第三问", 5), new Turn("ASSISTANT", "第三答", 5)),
            List.of(new SessionFact("promise", "我们会回电", 5)));
        SessionContext next = store.open(session, client, "u3");
        assertThat(next.recentTurns()).extracting(Turn::content).endsWith("第三问", "第三答");
        assertThat(next.facts()).extracting(SessionFact::text).containsExactly("耳机坏了", "我们会回电");
        assertThat(store.open(session, client, "intruder").continued()).as("the digest checks the owner too").isFalse();
    }

    long client() {
        return JdbcClient.create(TestDatabase.get()).sql("""
                INSERT INTO api_client (name, key_prefix, key_hash) VALUES (?, 'sk-test', ?) RETURNING id""")
            .params("sessions-" + UUID.randomUUID(), UUID.randomUUID().toString().replace("-", "")
                + UUID.randomUUID().toString().replace("-", ""))
            .query(Long.class).single();
    }

    void exchangeAs(SessionStore store, long client, UUID session, String user, String question, String answer,
            List<SessionFact> facts) {
        JdbcClient db = JdbcClient.create(TestDatabase.get());
        db.sql("INSERT INTO conversation (id, user_id, client_id) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING")
            .params(session, user, client).update();
        UUID request = UUID.randomUUID();
        db.sql("INSERT INTO conversation_message (conversation_id, request_id, role, content) VALUES (?, ?, 'USER', ?)")
            .params(session, request, question).update();
        db.sql("INSERT INTO conversation_message (conversation_id, request_id, role, content) VALUES (?, ?, 'ASSISTANT', ?)")
            .params(session, request, answer).update();
        store.recordFacts(session, facts);
        long now = System.currentTimeMillis();
        store.append(session, client, user, List.of(new Turn("USER", question, now), new Turn("ASSISTANT", answer, now)),
            facts);
    }

    /** A DataSource whose target can be switched to a closed port ("the database went down"). */
    static final class SwitchableDataSource implements DataSource {
        private volatile DataSource target;

        SwitchableDataSource(DataSource target) {
            this.target = target;
        }

        void target(DataSource next) {
            this.target = next;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return target.getConnection();
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return target.getConnection(username, password);
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return target.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            target.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            target.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return target.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            return target.unwrap(iface);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) throws SQLException {
            return target.isWrapperFor(iface);
        }
    }
}
