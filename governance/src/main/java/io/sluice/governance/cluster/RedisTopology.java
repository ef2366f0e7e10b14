package io.sluice.governance.cluster;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import org.redisson.config.Config;
import org.redisson.config.ReadMode;

/**
 * Where Redis is and how it is deployed — one node, a Sentinel-watched master, or a Cluster — read from
 * the Spring Boot properties operators know ({@code spring.data.redis.url}, {@code .username}/{@code .password},
 * {@code .ssl.enabled}, {@code .database}, {@code .sentinel.master}/{@code .nodes}/{@code .password},
 * {@code .cluster.nodes}) or their {@code sluice.redis.*} twins (env {@code SLUICE_REDIS_URL},
 * {@code SLUICE_REDIS_SENTINEL_MASTER}, {@code SLUICE_REDIS_SENTINEL_NODES}, {@code SLUICE_REDIS_CLUSTER_NODES}, ...),
 * and turned into the matching Redisson mode. Contradictory or malformed settings fail at start-up with a
 * message naming the property (never a password).
 *
 * <p>Every Sluice script keeps the keys it touches together under one hash tag, so all three modes run
 * the same code; reads go to masters (permits and buckets need read-your-writes).
 *
 * @param mode             single, sentinel or cluster
 * @param nodes            redis:// or rediss:// addresses: the one node, the sentinels, or the cluster seeds
 * @param sentinelMaster   the master's name as the sentinels know it (sentinel mode only)
 * @param username         ACL user of the data nodes (null = default user)
 * @param password         password of the data nodes (null = none)
 * @param sentinelUsername ACL user of the sentinels (null = none)
 * @param sentinelPassword password of the sentinels (null = none)
 * @param database         logical database (0 in cluster mode)
 */
public record RedisTopology(Mode mode, List<String> nodes, String sentinelMaster, String username, String password,
        String sentinelUsername, String sentinelPassword, int database) {

    public enum Mode { SINGLE, SENTINEL, CLUSTER }

    /** Property prefixes looked at, first non-blank wins: Sluice's own, then Spring Boot's. */
    public static final List<String> PREFIXES = List.of("sluice.redis.", "spring.data.redis.");

    public RedisTopology {
        nodes = List.copyOf(nodes);
    }

    /** A single node at {@code url} (redis://[user:password@]host:port[/db], or rediss:// for TLS). */
    public static RedisTopology single(String url) {
        return resolve(key -> key.equals("sluice.redis.url") ? url : null);
    }

    /**
     * Reads the topology through {@code property} (a Spring Environment's getProperty, or an env lookup);
     * null when nothing is configured (the embedded default).
     *
     * @throws IllegalArgumentException for contradictory or malformed settings, naming the property
     */
    public static RedisTopology resolve(Function<String, String> property) {
        String url = first(property, "url");
        String clusterNodes = first(property, "cluster.nodes");
        String sentinelMaster = first(property, "sentinel.master");
        String sentinelNodes = first(property, "sentinel.nodes");
        boolean ssl = Boolean.parseBoolean(first(property, "ssl.enabled"));
        String username = first(property, "username");
        String password = first(property, "password");
        String database = first(property, "database");
        if (clusterNodes != null && (sentinelMaster != null || sentinelNodes != null)) {
            throw new IllegalArgumentException("redis: both cluster.nodes and sentinel.* are set"
                + " (spring.data.redis.* / SLUICE_REDIS_*): configure one topology");
        }
        if ((sentinelMaster == null) != (sentinelNodes == null)) {
            throw new IllegalArgumentException("redis: sentinel mode needs both sentinel.master and sentinel.nodes"
                + " (spring.data.redis.sentinel.* or SLUICE_REDIS_SENTINEL_MASTER / _NODES); "
                + (sentinelMaster == null ? "sentinel.master" : "sentinel.nodes") + " is missing");
        }
        int db = 0;
        if (url != null) {
            Endpoint endpoint = Endpoint.parse(url, "url");
            if (clusterNodes == null && sentinelMaster == null) {
                username = endpoint.username() != null ? endpoint.username() : username;
                password = endpoint.password() != null ? endpoint.password() : password;
                db = endpoint.database();
                if (database != null) {
                    db = parseDatabase(database);
                }
                return new RedisTopology(Mode.SINGLE, List.of(endpoint.address(ssl)), null, username, password, null, null, db);
            }
            // with a topology, the URL only contributes credentials and TLS (Spring Boot reads it the same way)
            ssl = ssl || endpoint.tls();
            username = endpoint.username() != null ? endpoint.username() : username;
            password = endpoint.password() != null ? endpoint.password() : password;
            db = endpoint.database();
        }
        if (database != null) {
            db = parseDatabase(database);
        }
        if (clusterNodes != null) {
            if (db != 0) {
                throw new IllegalArgumentException("redis: a Redis Cluster has only database 0 (database is " + db + ")");
            }
            return new RedisTopology(Mode.CLUSTER, addresses(clusterNodes, "cluster.nodes", ssl), null, username, password,
                null, null, 0);
        }
        if (sentinelMaster != null) {
            return new RedisTopology(Mode.SENTINEL, addresses(sentinelNodes, "sentinel.nodes", ssl), sentinelMaster,
                username, password, first(property, "sentinel.username"), first(property, "sentinel.password"), db);
        }
        return null;
    }

    /** The same lookup over process environment variables ({@code sluice.redis.cluster.nodes} → SLUICE_REDIS_CLUSTER_NODES). */
    public static RedisTopology fromEnvironment() {
        return resolve(key -> key.startsWith("sluice.")
            ? System.getenv(key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_')) : null);
    }

    /**
     * {@code url} as the environment deploys it: when it is {@code SLUICE_REDIS_URL} and the environment also
     * names a Sentinel or Cluster topology ({@code SLUICE_REDIS_SENTINEL_*}, {@code SLUICE_REDIS_CLUSTER_NODES}),
     * that topology; otherwise the single node at {@code url}. Lets tools and tests that take a Redis URL run
     * unchanged against every topology.
     */
    public static RedisTopology ofUrl(String url) {
        if (url != null && url.equals(System.getenv("SLUICE_REDIS_URL"))) {
            RedisTopology environment = fromEnvironment();
            if (environment != null) {
                return environment;
            }
        }
        return single(url);
    }

    /** A Redisson configuration for this topology; timeouts as given, retries once. */
    public Config toConfig(int connectTimeoutMs, int timeoutMs, int retryAttempts) {
        Config config = new Config();
        switch (mode) {
            case SINGLE -> config.useSingleServer()
                .setAddress(nodes.getFirst())
                .setUsername(username).setPassword(password).setDatabase(database)
                .setConnectTimeout(connectTimeoutMs).setTimeout(timeoutMs).setRetryAttempts(retryAttempts);
            case SENTINEL -> {
                var sentinel = config.useSentinelServers()
                    .setMasterName(sentinelMaster)
                    .setUsername(username).setPassword(password).setDatabase(database)
                    .setSentinelUsername(sentinelUsername).setSentinelPassword(sentinelPassword)
                    .setReadMode(ReadMode.MASTER)
                    // sentinels announce each other by the address they see; loopback or NAT set-ups differ
                    .setCheckSentinelsList(false)
                    .setConnectTimeout(connectTimeoutMs).setTimeout(timeoutMs).setRetryAttempts(retryAttempts);
                nodes.forEach(sentinel::addSentinelAddress);
            }
            case CLUSTER -> {
                var cluster = config.useClusterServers()
                    .setUsername(username).setPassword(password)
                    .setReadMode(ReadMode.MASTER)
                    .setConnectTimeout(connectTimeoutMs).setTimeout(timeoutMs).setRetryAttempts(retryAttempts);
                nodes.forEach(cluster::addNodeAddress);
            }
        }
        return config;
    }

    /** For logs: mode and addresses, never credentials. */
    public String describe() {
        return mode.name().toLowerCase(Locale.ROOT) + " " + String.join(",", nodes)
            + (sentinelMaster == null ? "" : " master " + sentinelMaster) + (password == null ? "" : " (auth)");
    }

    @Override
    public String toString() {
        return describe();
    }

    private static String first(Function<String, String> property, String suffix) {
        for (String prefix : PREFIXES) {
            String value = property.apply(prefix + suffix);
            if (value != null && !value.isBlank()) {
                return value.trim();
            }
            // a YAML list (nodes: [a:1, b:2]) reaches the Environment as nodes[0], nodes[1], …
            List<String> items = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                String item = property.apply(prefix + suffix + "[" + i + "]");
                if (item == null || item.isBlank()) {
                    break;
                }
                items.add(item.trim());
            }
            if (!items.isEmpty()) {
                return String.join(",", items);
            }
        }
        return null;
    }

    private static int parseDatabase(String text) {
        try {
            int db = Integer.parseInt(text);
            if (db >= 0) {
                return db;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("redis: database must be a number >= 0");
    }

    private static List<String> addresses(String list, String property, boolean ssl) {
        List<String> addresses = new ArrayList<>();
        for (String part : list.split(",")) {
            if (!part.isBlank()) {
                addresses.add(Endpoint.parse(part.trim(), property).address(ssl));
            }
        }
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("redis: " + property + " lists no host:port");
        }
        return addresses;
    }

    /** One host:port, with or without a scheme and credentials. */
    private record Endpoint(boolean tls, String host, int port, String username, String password, int database) {

        static Endpoint parse(String text, String property) {
            String withScheme = text.contains("://") ? text : "redis://" + text;
            URI uri;
            try {
                uri = URI.create(withScheme);
            } catch (IllegalArgumentException e) {
                throw invalid(property);
            }
            String scheme = String.valueOf(uri.getScheme()).toLowerCase(Locale.ROOT);
            if (!scheme.equals("redis") && !scheme.equals("rediss")) {
                throw new IllegalArgumentException("redis: " + property + " must use redis:// or rediss:// (TLS), not " + scheme + "://");
            }
            if (uri.getHost() == null || uri.getPort() <= 0 || uri.getPort() > 65535) {
                throw invalid(property);
            }
            String user = null;
            String pass = null;
            if (uri.getRawUserInfo() != null) {
                String info = uri.getRawUserInfo();
                int colon = info.indexOf(':');
                user = colon < 0 ? null : decode(info.substring(0, colon));
                pass = decode(colon < 0 ? info : info.substring(colon + 1));
                user = user == null || user.isEmpty() ? null : user;
            }
            int db = 0;
            String path = uri.getPath();
            if (path != null && path.length() > 1) {
                try {
                    db = Integer.parseInt(path.substring(1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("redis: " + property + " has a path that is not a database number");
                }
            }
            return new Endpoint(scheme.equals("rediss"), uri.getHost(), uri.getPort(), user, pass, db);
        }

        String address(boolean ssl) {
            return (tls || ssl ? "rediss://" : "redis://") + host + ":" + port;
        }

        private static String decode(String s) {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        }

        private static IllegalArgumentException invalid(String property) {
            return new IllegalArgumentException("redis: " + property + " must be host:port or redis[s]://[user:password@]host:port[/db]");
        }
    }
}
