package io.sluice.console.dashboard;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitProperties;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/** What the dashboard shows, read from the live platform. */
@Service
public class DashboardQueries {

    private final JdbcClient jdbc;
    private final ClusterPermits permits;
    private final PermitProperties permitProperties;

    public DashboardQueries(JdbcClient jdbc, ClusterPermits permits, PermitProperties permitProperties) {
        this.jdbc = jdbc;
        this.permits = permits;
        this.permitProperties = permitProperties;
    }

    public record LaneUse(String lane, int inUse, int size) {
        public int percent() {
            return size == 0 ? 0 : Math.min(100, inUse * 100 / size);
        }
    }

    public record Latency(long answers, Double p50, Double p95, Double p99) {
    }

    public List<LaneUse> permits() {
        return permitProperties.lanes().keySet().stream().sorted()
            .map(lane -> new LaneUse(lane, permits.inUse(lane), permits.size(lane)))
            .toList();
    }

    /** Answer latency over the last five minutes, from the stored exchanges. */
    public Latency latency() {
        return jdbc.sql("""
                SELECT count(*) AS answers,
                       percentile_cont(0.5)  WITHIN GROUP (ORDER BY latency_ms) AS p50,
                       percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95,
                       percentile_cont(0.99) WITHIN GROUP (ORDER BY latency_ms) AS p99
                FROM conversation_message
                WHERE role = 'ASSISTANT' AND created_at > now() - interval '5 minutes'""")
            .query((rs, n) -> new Latency(rs.getLong("answers"), (Double) rs.getObject("p50"),
                (Double) rs.getObject("p95"), (Double) rs.getObject("p99")))
            .single();
    }

    public Map<String, Long> workQueue() {
        Map<String, Long> byState = new LinkedHashMap<>();
        for (String state : List.of("QUEUED", "RUNNING", "DONE", "DEAD")) {
            byState.put(state, 0L);
        }
        jdbc.sql("SELECT state, count(*) AS n FROM work_item GROUP BY state")
            .query((rs, n) -> Map.entry(rs.getString("state"), rs.getLong("n")))
            .list()
            .forEach(entry -> byState.put(entry.getKey(), entry.getValue()));
        return byState;
    }

    /** Answers per minute by tier over the last hour: [minute epoch seconds, F4, F3, F2, F1, F0]. */
    public List<long[]> answersByTier() {
        // every minute of the hour, zeros included, so the chart shows quiet minutes as quiet
        return jdbc.sql("""
                SELECT extract(epoch FROM minutes.minute)::bigint AS minute,
                       count(m.id) FILTER (WHERE m.tier = 'F4') AS f4, count(m.id) FILTER (WHERE m.tier = 'F3') AS f3,
                       count(m.id) FILTER (WHERE m.tier = 'F2') AS f2, count(m.id) FILTER (WHERE m.tier = 'F1') AS f1,
                       count(m.id) FILTER (WHERE m.tier = 'F0') AS f0
                FROM generate_series(date_trunc('minute', now()) - interval '59 minutes', date_trunc('minute', now()),
                                     interval '1 minute') AS minutes(minute)
                LEFT JOIN conversation_message m
                       ON m.role = 'ASSISTANT' AND date_trunc('minute', m.created_at) = minutes.minute
                GROUP BY 1 ORDER BY 1""")
            .query((rs, n) -> new long[] {rs.getLong("minute"), rs.getLong("f4"), rs.getLong("f3"), rs.getLong("f2"),
                rs.getLong("f1"), rs.getLong("f0")})
            .list();
    }
}
