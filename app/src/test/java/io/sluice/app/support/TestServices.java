package io.sluice.app.support;

/**
 * The real services the integration tests run against, from the environment that
 * {@code scripts/services-up.sh} prints (CI and the README's test command set it).
 */
public final class TestServices {

    private TestServices() {
    }

    public static String databaseUrl() {
        return required("SLUICE_DB_URL");
    }

    public static String redisUrl() {
        return required("SLUICE_REDIS_URL");
    }

    private static String required(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set: run the tests through the README's test command "
                + "(scripts/test.sh), or `eval \"$(scripts/services-up.sh)\"` first");
        }
        return value;
    }
}
