package io.sluice.app.runtime;

import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/** Resolves external service URLs: Sluice's own property first, then the standard Spring one. */
final class ServiceUrls {

    private ServiceUrls() {
    }

    static String database(Environment env) {
        return first(env, "sluice.db.url", "spring.datasource.url");
    }

    private static String first(Environment env, String... keys) {
        for (String key : keys) {
            String value = env.getProperty(key);
            if (StringUtils.hasText(value)) {
                return value.trim();
            }
        }
        return null;
    }
}
