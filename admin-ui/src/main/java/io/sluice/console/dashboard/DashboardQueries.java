package io.sluice.console.dashboard;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.intent.Priority;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationState;
import io.sluice.governance.gateway.GatewayAssembly;
import io.sluice.governance.gateway.GatewayProperties;
import io.sluice.governance.gateway.GovernedLlmGateway;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitProperties;
import io.sluice.governance.sentinel.SentinelRules;
import io.sluice.governance.tpm.ProviderRateLimits;

import org.springframework.beans.factory.ObjectProvider;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/** What the dashboard shows, read from the live platform. */
@Service
public class DashboardQueries {

    private final JdbcClient jdbc;
    private final ClusterPermits permits;
    private final PermitProperties permitProperties;
    private final GatewayAssembly gateway;
    private final GatewayProperties gatewayProperties;
    private final DegradationControl degradation;
    private final ObjectProvider<PriorityAdmission> admission;

    public DashboardQueries(JdbcClient jdbc, ClusterPermits permits, PermitProperties permitProperties,
            GatewayAssembly gateway, GatewayProperties gatewayProperties, DegradationControl degradation,
            ObjectProvider<PriorityAdmission> admission) {
        this.jdbc = jdbc;
        this.permits = permits;
        this.permitProperties = permitProperties;
        this.gateway = gateway;
        this.gatewayProperties = gatewayProperties;
        this.degradation = degradation;
        this.admission = admission;
    }

    /**
     * One lane's breakers on this instance: the fast-path breaker (consecutive failures; NONE when the lane has
     * none) and Sentinel's per model (OPEN / HALF_OPEN / CLOSED, NONE without a degrade rule).
     */
    public record Breakers(String lane, String fastPath, Map<String, String> models) {
        public boolean anyOpen() {
            return "OPEN".equals(fastPath) || models.containsValue("OPEN");
        }
    }

    /** Provider tokens: used in the current window (cluster-wide), the window's limit (0 = none), per minute. */
    public record TokenBudget(long used, long limit, long windowSeconds, double limitPerMinute) {
        public int percent() {
            return limit <= 0 ? 0 : (int) Math.min(100, used * 100 / limit);
        }
    }

    /** Empty when no provider is configured (no gateway breakers then). */
    public List<Breakers> breakers() {
        SentinelRules rules = gateway.sentinelRules();
        if (rules == null) {
            return List.of();
        }
        Map<Lane, Map<String, String>> sentinel = rules.breakerStates();
        return java.util.Arrays.stream(Lane.values()).map(lane -> {
            String fastPath = gatewayProperties.lane(lane).breaker() == null ? "NONE"
                : gateway.gateway() instanceof GovernedLlmGateway governed ? governed.breakerState(lane).name() : "NONE";
            return new Breakers(lane.key(), fastPath, sentinel.getOrDefault(lane, Map.of()));
        }).toList();
    }

    /** Null when no provider is configured. */
    public TokenBudget tokens() {
        ProviderRateLimits limits = gateway.rateLimits();
        if (limits == null) {
            return null;
        }
        long window = Math.max(1, gatewayProperties.tpm().window().toSeconds());
        long used;
        try {
            used = limits.used();
        } catch (RuntimeException e) {
            used = 0;
        }
        return new TokenBudget(used, limits.limit(), window, limits.limit() * 60.0 / window);
    }

    public DegradationState level() {
        return degradation.state();
    }

    /** Chat requests waiting for an answering slot on this instance (null when there is no admission). */
    public Integer admissionQueue() {
        PriorityAdmission a = admission.getIfAvailable();
        return a == null ? null : a.queueLength();
    }

    /** The same, by priority class S, A, B (empty when there is no admission). */
    public Map<String, Integer> admissionQueueByClass() {
        PriorityAdmission a = admission.getIfAvailable();
        Map<String, Integer> waiting = new LinkedHashMap<>();
        if (a != null) {
            for (Priority priority : Priority.values()) {
                waiting.put(priority.name(), a.waiting(priority));
            }
        }
        return waiting;
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
