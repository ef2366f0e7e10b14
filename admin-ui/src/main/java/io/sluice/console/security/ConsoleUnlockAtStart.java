package io.sluice.console.security;

import io.sluice.console.audit.AuditLog;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The operator's way out when every admin is locked out by failed logins: {@code SLUICE_CONSOLE_UNLOCK=admin}
 * (or {@code scripts/run.sh --unlock admin}; property {@code sluice.console.unlock}, comma-separated names)
 * clears those accounts' failed-login counts at start, audited as done by {@code startup}. Whoever can set the
 * environment of the process already controls it, so this gives nobody more than they have.
 */
@Component
public class ConsoleUnlockAtStart implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(ConsoleUnlockAtStart.class);

    private final LoginAttemptLimiter limiter;
    private final AuditLog audit;
    private final Environment env;

    ConsoleUnlockAtStart(LoginAttemptLimiter limiter, AuditLog audit, Environment env) {
        this.limiter = limiter;
        this.audit = audit;
        this.env = env;
    }

    @Override
    public void run(ApplicationArguments args) {
        unlock(env.getProperty("sluice.console.unlock", ""));
    }

    /** Unlocks each comma-separated name; returns how many names it unlocked. */
    public int unlock(String names) {
        int done = 0;
        for (String raw : names == null ? new String[0] : names.split(",")) {
            String name = raw.strip();
            if (name.isEmpty() || name.length() > LoginAttemptLimiter.MAX_USERNAME_CHARS
                    || name.chars().anyMatch(Character::isISOControl)) {
                continue;
            }
            long cleared = limiter.unlock(name);
            audit.record("startup", "user.unlock", name, cleared > 0 ? "locked or counting" : "not locked",
                "failed-login counts cleared (SLUICE_CONSOLE_UNLOCK)");
            log.warn("console: failed-login lock of '{}' cleared at start (SLUICE_CONSOLE_UNLOCK)", name);
            done++;
        }
        return done;
    }
}
