package io.sluice.batch.support;

/** Where the real services for tests are: from the environment only, failing clearly when missing. */
public final class TestServices {

    private TestServices() {
    }

    public static String dbUrl() {
        return required("SLUICE_DB_URL", "jdbc:postgresql://127.0.0.1:55432/sluice_batch?user=postgres");
    }

    public static String redisUrl() {
        return required("SLUICE_REDIS_URL", "redis://127.0.0.1:56379/3");
    }

    private static String required(String name, String example) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set. Tests need real services: run"
                + " eval \"$(bash scripts/services-up.sh)\" from the repository root, or export " + name + "=" + example);
        }
        return value;
    }
}
