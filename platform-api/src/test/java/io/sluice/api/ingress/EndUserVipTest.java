package io.sluice.api.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import io.sluice.knowledge.support.TestDatabase;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * VIP end users against a real PostgreSQL, with the statements counted: a request costs no database round
 * trip however many end users a client has; a change is in force at once on the instance that made it and on
 * every other once its TTL has passed; a client past the listed bound is asked per user, and those answers hold
 * until its version moves; a database that cannot answer is asked once per TTL, not once per request.
 */
class EndUserVipTest {

    static final Duration TTL = Duration.ofSeconds(5);

    final CountingDatabase database = new CountingDatabase();
    final JdbcClient jdbc = JdbcClient.create(database.dataSource);
    final AtomicLong clock = new AtomicLong(1_000_000_000L);
    final long client = client();

    EndUserVip instance() {
        return new EndUserVip(jdbc, TTL, clock::get);
    }

    void pastTheTtl() {
        clock.addAndGet(TTL.toNanos() + 1);
    }

    @Test
    void aClientsEndUsersCostOneReadOfItsVersionPerTtlNotOneReadPerUser() {
        EndUserVip vip = instance();
        vip.set(client, "vip-1", true, "test");
        database.statements.set(0);

        for (int user = 0; user < 1_000; user++) {
            assertThat(vip.isVip(client, "user-" + user)).isFalse();
        }
        assertThat(vip.isVip(client, "vip-1")).isTrue();
        assertThat(database.statements).hasValue(2);        // the version, then the users

        pastTheTtl();
        for (int user = 0; user < 1_000; user++) {
            assertThat(vip.isVip(client, "user-" + user)).isFalse();
        }
        assertThat(vip.isVip(client, "vip-1")).isTrue();
        assertThat(database.statements).hasValue(3);        // the version only: it did not move
    }

    @Test
    void aChangeHoldsAtOnceWhereItWasMadeAndOnEveryOtherInstanceOnceTheTtlHasPassed() {
        EndUserVip here = instance();
        EndUserVip there = instance();
        assertThat(there.isVip(client, "u1")).isFalse();

        here.set(client, "u1", true, "test");

        assertThat(here.isVip(client, "u1")).isTrue();
        assertThat(there.isVip(client, "u1")).isFalse();    // its last check holds until the TTL
        pastTheTtl();
        assertThat(there.isVip(client, "u1")).isTrue();

        here.set(client, "u1", false, "test");
        assertThat(here.isVip(client, "u1")).isFalse();
        pastTheTtl();
        assertThat(there.isVip(client, "u1")).isFalse();
        assertThat(instance().isVip(client + 1_000_000, "u1")).isFalse();     // another client's users are not these
    }

    @Test
    void aChangeSaysWhatTheUserWasBeforeAndMovesTheVersionOnlyWhenSomethingChanged() {
        EndUserVip vip = instance();

        assertThat(vip.set(client, "u1", true, "test")).isFalse();
        assertThat(vip.set(client, "u1", true, "test")).isTrue();
        assertThat(version()).isEqualTo(1);
        assertThat(vip.set(client, "u1", false, "test")).isTrue();
        assertThat(vip.set(client, "u1", false, "test")).isFalse();
        assertThat(version()).isEqualTo(2);
        assertThat(vip.list(client, 10)).isEmpty();
    }

    @Test
    void aClientWithMoreVipUsersThanTheListedBoundIsAskedPerUserAndTheAnswersHoldUntilItsVersionMoves() {
        JdbcClient.create(TestDatabase.get()).sql("""
                INSERT INTO end_user_vip (client_id, user_id) SELECT ?, 'many-' || n FROM generate_series(1, ?) AS n""")
            .params(client, EndUserVip.MAX_LISTED + 1).update();
        EndUserVip vip = instance();

        assertThat(vip.isVip(client, "many-7")).isTrue();
        assertThat(vip.isVip(client, "nobody")).isFalse();
        int firstReads = database.statements.get();          // the version, the users (too many), then each user once
        assertThat(firstReads).isEqualTo(4);
        assertThat(vip.isVip(client, "many-7")).isTrue();
        assertThat(vip.isVip(client, "nobody")).isFalse();
        pastTheTtl();
        assertThat(vip.isVip(client, "many-7")).isTrue();
        assertThat(vip.isVip(client, "nobody")).isFalse();
        assertThat(database.statements).hasValue(firstReads + 1);   // the version only

        instance().set(client, "nobody", true, "test");
        pastTheTtl();
        assertThat(vip.isVip(client, "nobody")).isTrue();
    }

    @Test
    void aDatabaseThatCannotAnswerKeepsTheLastKnownUsersAndIsAskedOncePerTtl() {
        EndUserVip vip = instance();
        vip.set(client, "u1", true, "test");
        assertThat(vip.isVip(client, "u1")).isTrue();
        database.down = true;
        pastTheTtl();
        database.statements.set(0);

        for (int i = 0; i < 100; i++) {
            assertThat(vip.isVip(client, "u1")).isTrue();
            assertThat(vip.isVip(client, "u2")).isFalse();
        }
        assertThat(database.statements).hasValue(1);

        database.down = false;
        pastTheTtl();
        assertThat(vip.isVip(client, "u1")).isTrue();
        assertThat(instance().isVip(client, "u1")).isTrue();
    }

    @Test
    void aNewInstanceWhoseDatabaseCannotAnswerTreatsEveryoneAsStandard() {
        instance().set(client, "u1", true, "test");
        database.down = true;
        EndUserVip vip = instance();

        assertThat(vip.isVip(client, "u1")).isFalse();
        assertThat(vip.isVip(client, "")).isFalse();
        assertThat(vip.isVip(client, null)).isFalse();
    }

    long version() {
        return JdbcClient.create(TestDatabase.get()).sql("SELECT version FROM end_user_vip_version WHERE client_id = ?")
            .param(client).query(Long.class).single();
    }

    static long client() {
        return JdbcClient.create(TestDatabase.get()).sql("""
                INSERT INTO api_client (name, key_prefix, key_hash) VALUES (?, 'sk-test', ?) RETURNING id""")
            .params("vip-" + UUID.randomUUID(), UUID.randomUUID().toString().replace("-", "")
                + UUID.randomUUID().toString().replace("-", ""))
            .query(Long.class).single();
    }

    /** The test database, each connection taken counted as one statement (JdbcClient takes one per statement). */
    static final class CountingDatabase {
        final AtomicInteger statements = new AtomicInteger();
        volatile boolean down;
        final DataSource dataSource = (DataSource) Proxy.newProxyInstance(EndUserVipTest.class.getClassLoader(),
            new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                if (method.getName().equals("getConnection")) {
                    statements.incrementAndGet();
                    if (down) {
                        throw new SQLException("connection refused (the test's database is down)", "08001");
                    }
                }
                try {
                    return method.invoke(TestDatabase.get(), args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
    }
}
