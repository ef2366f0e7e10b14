package io.sluice.knowledge.support;

import java.nio.file.Files;
import java.nio.file.Path;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The real PostgreSQL (+ pgvector) the tests run against: {@code SLUICE_DB_URL} from the
 * environment, migrated once per JVM with the repository's own migrations.
 */
public final class TestDatabase {

    private static DataSource dataSource;

    private TestDatabase() {
    }

    public static synchronized DataSource get() {
        if (dataSource == null) {
            String url = System.getenv("SLUICE_DB_URL");
            if (url == null || url.isBlank()) {
                throw new IllegalStateException("SLUICE_DB_URL is not set: knowledge tests need a real PostgreSQL "
                    + "(+ pgvector); see scripts/services-up.sh");
            }
            PGSimpleDataSource ds = new PGSimpleDataSource();
            ds.setUrl(url);
            // out of order, as the application migrates: versions are numbered by owning module (application.yml)
            Flyway.configure().dataSource(ds).locations("filesystem:" + migrations()).outOfOrder(true).load().migrate();
            dataSource = ds;
        }
        return dataSource;
    }

    /** A DataSource at a closed port: "the database is down" without touching the shared server. */
    public static DataSource down() {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setUrl("jdbc:postgresql://127.0.0.1:9/sluice_down?connectTimeout=1&socketTimeout=1");
        ds.setUser("postgres");
        return ds;
    }

    static Path migrations() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            Path candidate = p.resolve("db/migration");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("db/migration not found above " + dir);
    }
}
