package io.sluice.console.security;

import java.time.Duration;

import org.redisson.api.RAtomicLong;
import org.redisson.api.RedissonClient;

/**
 * Limits failed console logins per username, cluster-wide (Redis): after {@code maxFailures} within
 * the window the name is locked until the window ends. Counting per name (not per address) stops
 * password guessing from many addresses; a success clears the count.
 */
public class LoginAttemptLimiter {

    private final RedissonClient redisson;
    private final int maxFailures;
    private final Duration window;

    public LoginAttemptLimiter(RedissonClient redisson, int maxFailures, Duration window) {
        this.redisson = redisson;
        this.maxFailures = maxFailures;
        this.window = window;
    }

    public boolean locked(String username) {
        return counter(username).get() >= maxFailures;
    }

    public void failed(String username) {
        RAtomicLong counter = counter(username);
        if (counter.incrementAndGet() == 1) {
            counter.expire(window);
        }
    }

    public void succeeded(String username) {
        counter(username).delete();
    }

    private RAtomicLong counter(String username) {
        return redisson.getAtomicLong("sluice:console:login-failures:" + username.toLowerCase(java.util.Locale.ROOT));
    }
}
