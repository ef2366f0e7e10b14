package io.sluice.console.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;

import org.redisson.api.RAtomicLong;
import org.redisson.api.RedissonClient;

/**
 * Limits failed console logins cluster-wide (Redis), in two dimensions:
 * <ul>
 *   <li>per account <em>and</em> address: after {@code maxFailures} within the window that pair is locked
 *       until the window ends, so guessing from one place stops while the owner elsewhere still logs in;</li>
 *   <li>per account over all addresses, with a higher bound ({@code maxAccountFailures}), so guessing
 *       spread over many addresses is stopped too.</li>
 * </ul>
 * Keys hold SHA-256 digests, never the name or address typed in, so they have one size whatever was sent
 * (a 1 MiB username costs 64 bytes of key); names longer than {@link #MAX_USERNAME_CHARS} never get here.
 * A success clears the pair's count; {@link #unlock} (an admin on the Users page, or
 * {@code SLUICE_CONSOLE_UNLOCK} at start) clears every count of an account. Pair keys begin with the
 * account's digest so that unlocking finds them without knowing the addresses.
 */
public class LoginAttemptLimiter {

    /** Console user names are at most this long (ConsoleUsers' rule); longer ones are refused unlooked-at. */
    public static final int MAX_USERNAME_CHARS = 100;

    private final RedissonClient redisson;
    private final int maxFailures;
    private final int maxAccountFailures;
    private final Duration window;
    private final String prefix;

    public LoginAttemptLimiter(RedissonClient redisson, int maxFailures, Duration window) {
        this(redisson, maxFailures, maxFailures * 10, window, "sluice:console:login:");
    }

    public LoginAttemptLimiter(RedissonClient redisson, int maxFailures, int maxAccountFailures, Duration window,
            String prefix) {
        this.redisson = redisson;
        this.maxFailures = maxFailures;
        this.maxAccountFailures = maxAccountFailures;
        this.window = window;
        this.prefix = prefix;
    }

    public boolean locked(String username, String address) {
        return pair(username, address).get() >= maxFailures || account(username).get() >= maxAccountFailures;
    }

    public void failed(String username, String address) {
        count(pair(username, address));
        count(account(username));
    }

    public void succeeded(String username, String address) {
        pair(username, address).delete();
    }

    /** True when the account is locked from some address or everywhere (for the Users page). */
    public boolean lockedAnywhere(String username) {
        if (account(username).get() >= maxAccountFailures) {
            return true;
        }
        for (String key : redisson.getKeys().getKeysByPattern(pairPattern(username))) {
            if (redisson.getAtomicLong(key).get() >= maxFailures) {
                return true;
            }
        }
        return false;
    }

    /**
     * Clears the account's failure counts, from every address and over all: its owner can log in at once.
     *
     * @return how many counters there were (0 = it was not locked nor counting)
     */
    public long unlock(String username) {
        long pairs = redisson.getKeys().deleteByPattern(pairPattern(username));
        return pairs + (account(username).delete() ? 1 : 0);
    }

    private String pairPattern(String username) {
        return prefix + "pair:" + digest(normal(username)) + ":*";
    }

    private void count(RAtomicLong counter) {
        if (counter.incrementAndGet() == 1) {
            counter.expire(window);
        }
    }

    private RAtomicLong pair(String username, String address) {
        return redisson.getAtomicLong(prefix + "pair:" + digest(normal(username)) + ":" + digest(String.valueOf(address)));
    }

    private RAtomicLong account(String username) {
        return redisson.getAtomicLong(prefix + "account:" + digest(normal(username)));
    }

    private static String normal(String username) {
        return username == null ? "" : username.toLowerCase(Locale.ROOT);
    }

    static String digest(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always present", e);
        }
    }
}
