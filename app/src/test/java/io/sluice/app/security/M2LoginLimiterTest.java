package io.sluice.app.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.http.HttpResponse;

import io.sluice.app.support.ConsoleSession;
import io.sluice.console.users.ConsoleRole;
import io.sluice.console.users.ConsoleUsers;

import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * M2: the login limiter kept the raw username in a Redis key: 5 logins with a 1 MiB username grew Redis
 * by 7.8 MB for 5 minutes. And (Low) one account could be locked by anyone: the count was per name only.
 * Now names no user can have are refused before Redis is touched, keys hold digests, and failures count per
 * account and address (plus a higher bound per account), so the owner logs in from elsewhere.
 */
class M2LoginLimiterTest extends SecuritySuite {

    static final String PASSWORD = "correct-horse-battery";

    @Autowired
    RedissonClient redisson;

    @Autowired
    ConsoleUsers users;

    @Test
    void hugeUsernamesCostRedisNothing() throws Exception {
        InetAddress from = InetAddress.getByName("127.0.0.6");
        java.util.Set<String> before = loginKeys();
        String huge = "a".repeat(900 * 1024);
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> login = new ConsoleSession(port, from).tryLogIn(huge + i, "whatever-password");
            assertThat(login.statusCode()).isEqualTo(302);
            assertThat(login.headers().firstValue("Location").orElse("")).contains("/login?error");
        }
        assertThat(loginKeys()).as("no limiter key was written for a name no user can have").isSubsetOf(before);
        for (String key : redisson.getKeys().getKeysByPattern("*login*")) {
            assertThat(key.length()).isLessThan(200);
        }
    }

    private java.util.Set<String> loginKeys() {
        java.util.Set<String> keys = new java.util.HashSet<>();
        redisson.getKeys().getKeysByPattern("sluice:console:login*").forEach(keys::add);
        return keys;
    }

    @Test
    void failuresFromOneAddressLockThatAddressNotTheOwner() throws Exception {
        String user = "victim-" + RUN.substring(RUN.length() - 6);
        users.create(user, PASSWORD, ConsoleRole.VIEWER, false);
        ConsoleSession attacker = new ConsoleSession(port, InetAddress.getByName("127.0.0.3"));
        for (int i = 0; i < 6; i++) {
            attacker.tryLogIn(user, "guess-" + i);
        }
        HttpResponse<String> attackerWithRightPassword = attacker.tryLogIn(user, PASSWORD);
        assertThat(attackerWithRightPassword.headers().firstValue("Location").orElse(""))
            .as("the attacker's address is locked for this account").contains("/login?error");

        HttpResponse<String> owner = new ConsoleSession(port, InetAddress.getByName("127.0.0.4")).tryLogIn(user, PASSWORD);
        assertThat(owner.headers().firstValue("Location").orElse("")).as("the owner, elsewhere, logs in")
            .doesNotContain("error");
    }
}
