package io.sluice.app.runtime;

import java.nio.file.Path;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Where the platform's services are ({@code sluice.*}). Nothing configured means the embedded
 * default: PostgreSQL and Redis started in-process from Maven artifacts, data under {@code dataDir}.
 *
 * @param dataDir  local state: embedded database files, Lucene indexes, snapshots (default ./data)
 * @param db       external PostgreSQL (env SLUICE_DB_URL, or spring.datasource.url)
 * @param redis    external Redis (env SLUICE_REDIS_URL, or spring.data.redis.url)
 * @param embedded ports of the embedded servers (0 = any free port)
 */
@Validated
@ConfigurationProperties("sluice")
public record RuntimeProperties(@NotNull Path dataDir, Db db, Redis redis, Embedded embedded) {

    public RuntimeProperties {
        db = db == null ? new Db(null, null, null) : db;
        redis = redis == null ? new Redis(null) : redis;
        embedded = embedded == null ? new Embedded(0, 0) : embedded;
    }

    /** @param url a JDBC URL; blank = embedded */
    public record Db(String url, String username, String password) {
    }

    /** @param url redis://host:port[/db]; blank = embedded */
    public record Redis(String url) {
    }

    public record Embedded(@Min(0) @Max(65535) int postgresPort, @Min(0) @Max(65535) int redisPort) {
    }
}
