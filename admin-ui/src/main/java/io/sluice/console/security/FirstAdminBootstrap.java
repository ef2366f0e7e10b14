package io.sluice.console.security;

import java.security.SecureRandom;
import java.util.Base64;

import io.sluice.console.users.ConsoleRole;
import io.sluice.console.users.ConsoleUsers;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The first console admin, when there are no users yet: from SLUICE_ADMIN_USERNAME and
 * SLUICE_ADMIN_PASSWORD, or else user {@code admin} with a one-time password printed once, which
 * must be changed at first login. Passwords from the environment are never logged.
 */
@Component
class FirstAdminBootstrap implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(FirstAdminBootstrap.class);

    private final ConsoleUsers users;
    private final Environment env;

    FirstAdminBootstrap(ConsoleUsers users, Environment env) {
        this.users = users;
        this.env = env;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (!users.none()) {
            return;
        }
        String username = env.getProperty("SLUICE_ADMIN_USERNAME");
        String password = env.getProperty("SLUICE_ADMIN_PASSWORD");
        if (username != null && !username.isBlank() && password != null && !password.isBlank()) {
            users.create(username, password, ConsoleRole.ADMIN, false);
            log.info("console: first admin '{}' created from SLUICE_ADMIN_USERNAME / SLUICE_ADMIN_PASSWORD", username);
            return;
        }
        byte[] random = new byte[12];
        new SecureRandom().nextBytes(random);
        String oneTime = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        users.create("admin", oneTime, ConsoleRole.ADMIN, true);
        log.warn("""

            console: first start, no users yet. Log in as 'admin' with the one-time password
                {}
            You will be asked to choose a new password. This is the only time it is shown.
            """, oneTime);
    }
}
