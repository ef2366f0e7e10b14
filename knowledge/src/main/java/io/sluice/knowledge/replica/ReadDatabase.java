package io.sluice.knowledge.replica;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

import javax.sql.DataSource;

import org.slf4j.LoggerFactory;

/**
 * Where read-only queries (retrieval, read-only console pages) get their connections: a streaming read replica
 * first — it takes load off the primary and keeps retrieval answering while the primary is slow or down — and
 * the primary when the replica cannot give a connection. After a replica failure the replica is skipped for
 * {@code recheckAfter}, so a dead replica costs one connect timeout, not one per query. Without a replica
 * configured, every read goes to the primary.
 *
 * <p>Deliberately not a {@link DataSource} bean of its own (that would make the primary ambiguous): beans that
 * may read from the replica ask for this type and call {@link #dataSource()}. Replica reads may lag the primary by
 * the replication delay (milliseconds on a healthy stream), which retrieval tolerates.
 */
public final class ReadDatabase implements AutoCloseable {

    private static final org.slf4j.Logger log = LoggerFactory.getLogger(ReadDatabase.class);

    private final DataSource replica;
    private final DataSource primary;
    private final long recheckNanos;
    private volatile long replicaDownUntil;
    private volatile boolean replicaDown;
    private final AtomicLong fromReplica = new AtomicLong();
    private final AtomicLong fromPrimary = new AtomicLong();
    private final DataSource routing = new Routing();

    /** @param replica null = no replica: reads use the primary */
    public ReadDatabase(DataSource replica, DataSource primary, Duration recheckAfter) {
        this.replica = replica;
        this.primary = primary;
        this.recheckNanos = recheckAfter.toNanos();
    }

    /** Reads on the primary only (no replica configured). */
    public static ReadDatabase primaryOnly(DataSource primary) {
        return new ReadDatabase(null, primary, Duration.ofSeconds(10));
    }

    /** The data source read-only queries use. */
    public DataSource dataSource() {
        return routing;
    }

    public boolean hasReplica() {
        return replica != null;
    }

    /** Whether the replica failed lately (reads go to the primary until the recheck). */
    public boolean replicaDown() {
        return replicaDown && System.nanoTime() - replicaDownUntil < 0;
    }

    public long connectionsFromReplica() {
        return fromReplica.get();
    }

    public long connectionsFromPrimary() {
        return fromPrimary.get();
    }

    Connection connect() throws SQLException {
        if (replica != null && !replicaDown()) {
            try {
                Connection c = replica.getConnection();
                if (replicaDown) {
                    replicaDown = false;
                    log.info("read replica reachable again: read-only queries use it");
                }
                fromReplica.incrementAndGet();
                return c;
            } catch (SQLException | RuntimeException e) {
                if (!replicaDown) {
                    log.warn("read replica unreachable ({}): read-only queries use the primary for {} ms", e.getMessage(),
                        recheckNanos / 1_000_000);
                }
                replicaDown = true;
                replicaDownUntil = System.nanoTime() + recheckNanos;
            }
        }
        Connection c = primary.getConnection();
        fromPrimary.incrementAndGet();
        return c;
    }

    /** Closes the replica's pool (the primary belongs to its own bean). */
    @Override
    public void close() throws Exception {
        if (replica instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    private final class Routing implements DataSource {

        @Override
        public Connection getConnection() throws SQLException {
            return connect();
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            throw new SQLFeatureNotSupportedException("the read database uses the configured credentials");
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            if (iface.isInstance(this)) {
                return iface.cast(this);
            }
            throw new SQLException("not a wrapper of " + iface.getName());
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return iface.isInstance(this);
        }
    }
}
