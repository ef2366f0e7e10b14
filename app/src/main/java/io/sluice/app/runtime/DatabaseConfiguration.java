package io.sluice.app.runtime;


import com.zaxxer.hikari.HikariDataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** The one DataSource: external PostgreSQL when a URL is configured, the embedded server otherwise. */
@Configuration(proxyBeanMethods = false)
public class DatabaseConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DatabaseConfiguration.class);

    @Bean(destroyMethod = "close")
    @Conditional(EmbeddedDatabase.class)
    EmbeddedPostgresServer embeddedPostgresServer(RuntimeProperties properties) {
        return EmbeddedPostgresServer.start(properties.dataDir().resolve("postgres"), properties.embedded().postgresPort());
    }

    @Bean(destroyMethod = "close")
    @Conditional(EmbeddedDatabase.class)
    HikariDataSource embeddedDataSource(EmbeddedPostgresServer server) {
        return pool(server.jdbcUrl(), "postgres", null);
    }

    @Bean(destroyMethod = "close")
    @Conditional(ExternalDatabase.class)
    HikariDataSource externalDataSource(RuntimeProperties properties, Environment env) {
        String url = ServiceUrls.database(env);
        String username = firstNonBlank(properties.db().username(), env.getProperty("spring.datasource.username"));
        String password = firstNonBlank(properties.db().password(), env.getProperty("spring.datasource.password"));
        log.info("database: external PostgreSQL at {}", redactedJdbcUrl(url));
        return pool(url, username, password);
    }

    /**
     * Read-only queries (vector retrieval) go to a streaming read replica when {@code sluice.db.read-url}
     * (env SLUICE_DB_READ_URL) is set, falling back to the primary while the replica is down.
     */
    @Bean(destroyMethod = "close")
    io.sluice.knowledge.replica.ReadDatabase readDatabase(javax.sql.DataSource primary, RuntimeProperties properties,
            Environment env, org.springframework.beans.factory.ObjectProvider<io.micrometer.core.instrument.MeterRegistry> meters) {
        String url = env.getProperty("sluice.db.read-url");
        // a replica belongs to an external primary; the embedded database has none
        if (url == null || url.isBlank() || ServiceUrls.database(env) == null) {
            return io.sluice.knowledge.replica.ReadDatabase.primaryOnly(primary);
        }
        String username = firstNonBlank(properties.db().username(), env.getProperty("spring.datasource.username"));
        String password = firstNonBlank(properties.db().password(), env.getProperty("spring.datasource.password"));
        HikariDataSource replica = pool(url.trim(), username, password);
        replica.setPoolName("sluice-db-read");
        // a dead replica must neither stop start-up nor hold a query long: the primary answers instead
        replica.setInitializationFailTimeout(-1);
        replica.setConnectionTimeout(1_000);
        log.info("database: read replica at {} for retrieval", redactedJdbcUrl(url));
        io.sluice.knowledge.replica.ReadDatabase reads = new io.sluice.knowledge.replica.ReadDatabase(replica, primary,
            java.time.Duration.ofSeconds(10));
        io.micrometer.core.instrument.MeterRegistry registry = meters.getIfAvailable();
        if (registry != null) {
            io.micrometer.core.instrument.FunctionCounter.builder("sluice.db.read.connections", reads,
                io.sluice.knowledge.replica.ReadDatabase::connectionsFromReplica).tag("source", "replica").register(registry);
            io.micrometer.core.instrument.FunctionCounter.builder("sluice.db.read.connections", reads,
                io.sluice.knowledge.replica.ReadDatabase::connectionsFromPrimary).tag("source", "primary").register(registry);
        }
        return reads;
    }

    private static HikariDataSource pool(String url, String username, String password) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(url);
        if (username != null) {
            pool.setUsername(username);
        }
        if (password != null) {
            pool.setPassword(password);
        }
        pool.setPoolName("sluice-db");
        pool.setMaximumPoolSize(20);
        // a burst may open 20; a quiet instance keeps 2 (idle ones close after a minute), so a fleet of
        // instances does not hold max_connections of the database while it idles
        pool.setMinimumIdle(2);
        pool.setIdleTimeout(60_000);
        pool.setConnectionTimeout(5_000);
        return pool;
    }

    /** Drops anything that may be a credential (query parameters, user info) before logging. */
    static String redactedJdbcUrl(String url) {
        String noQuery = url.contains("?") ? url.substring(0, url.indexOf('?')) : url;
        return noQuery.replaceAll("//[^@/]*@", "//***@");
    }

    private static String firstNonBlank(String a, String b) {
        return a != null && !a.isBlank() ? a : (b != null && !b.isBlank() ? b : null);
    }

    static class ExternalDatabase implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return ServiceUrls.database(context.getEnvironment()) != null;
        }
    }

    static class EmbeddedDatabase implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return ServiceUrls.database(context.getEnvironment()) == null;
        }
    }

    /** Lets other beans ask which mode runs without knowing how it was chosen. */
    @Bean
    DatabaseMode databaseMode(Environment env) {
        return new DatabaseMode(ServiceUrls.database(env) == null);
    }

    public record DatabaseMode(boolean embedded) {
    }

}
