package io.sluice.governance.sentinel;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.alibaba.csp.sentinel.slots.block.RuleConstant;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRule;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRuleManager;
import com.alibaba.csp.sentinel.slots.block.degrade.circuitbreaker.CircuitBreaker;
import com.alibaba.csp.sentinel.slots.block.degrade.circuitbreaker.EventObserverRegistry;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRuleManager;

import io.sluice.governance.cluster.RedisGuard;
import io.sluice.governance.cluster.SharedSetting;
import io.sluice.governance.gateway.Lane;

import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one service that owns the gateway's Sentinel rules. Rules start from configuration; an operator
 * (the console) replaces them with {@link #replace}: they are validated, applied here, stored in Redis
 * (so instances that start later pick them up) and announced on a Redis topic so every instance
 * applies them. A bad rule set is refused whole and the previous rules stay.
 */
public final class SentinelRules implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SentinelRules.class);
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final SharedSetting shared;
    private final Map<Lane, Set<String>> modelsPerLane;
    private final Map<Lane, LaneRules> configured;
    private volatile Map<Lane, LaneRules> current;
    /** Sentinel circuit breakers that left CLOSED, by resource#grade (a resource may have a slow and an error rule). */
    private final Map<String, CircuitBreaker.State> breakerStates = new java.util.concurrent.ConcurrentHashMap<>();
    private final String observerName = "sluice-rules-" + java.util.UUID.randomUUID();

    public SentinelRules(RedissonClient redisson, String keyPrefix, RedisGuard guard, Map<Lane, Set<String>> modelsPerLane,
            Map<Lane, LaneRules> configured) {
        this.modelsPerLane = Map.copyOf(modelsPerLane);
        this.configured = Map.copyOf(configured);
        EventObserverRegistry.getInstance().addStateChangeObserver(observerName, (from, to, rule, value) -> {
            String breaker = rule.getResource() + "#" + rule.getGrade();
            if (to == CircuitBreaker.State.CLOSED) {
                breakerStates.remove(breaker);
            } else {
                breakerStates.put(breaker, to);
            }
        });
        this.shared = new SharedSetting(redisson, keyPrefix + "sentinel-rules", guard, json -> {
            try {
                apply(decode(json));
                log.info("sentinel rules replaced from the cluster");
            } catch (RuntimeException e) {
                log.warn("ignored an unreadable sentinel rule set from the cluster: {}", e.getMessage());
            }
        });
        apply(shared.stored().map(SentinelRules::decode).orElse(configured));
    }

    /** The resource name of a lane and model. */
    public static String resource(Lane lane, String model) {
        return "llm:" + lane.key() + ":" + model;
    }

    public Map<Lane, LaneRules> current() {
        return current;
    }

    public Map<Lane, LaneRules> configured() {
        return configured;
    }

    /**
     * The Sentinel breaker of every lane and model on this instance: OPEN, HALF_OPEN, CLOSED, or NONE when the
     * lane has no degrade rule (both ratios 0).
     */
    public Map<Lane, Map<String, String>> breakerStates() {
        Map<Lane, Map<String, String>> states = new EnumMap<>(Lane.class);
        Map<Lane, LaneRules> rules = current;
        modelsPerLane.forEach((lane, models) -> {
            LaneRules r = rules.get(lane);
            boolean degrade = r != null && (r.slowRatio() > 0 || r.errorRatio() > 0);
            Map<String, String> byModel = new LinkedHashMap<>();
            for (String model : models) {
                String resource = resource(lane, model) + "#";
                // the worst of the resource's breakers: OPEN before HALF_OPEN before CLOSED
                CircuitBreaker.State state = breakerStates.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(resource)).map(Map.Entry::getValue)
                    .min(java.util.Comparator.comparing(s -> s == CircuitBreaker.State.OPEN ? 0 : 1))
                    .orElse(CircuitBreaker.State.CLOSED);
                byModel.put(model, degrade ? state.name() : "NONE");
            }
            states.put(lane, byModel);
        });
        return states;
    }

    /**
     * Replaces the rules of the given lanes cluster-wide (lanes not given keep theirs).
     *
     * @throws IllegalArgumentException naming what is wrong; nothing changes then
     */
    public void replace(Map<Lane, LaneRules> changes) {
        Map<Lane, LaneRules> next = new EnumMap<>(Lane.class);
        next.putAll(current);
        next.putAll(changes);
        if (!next.keySet().containsAll(modelsPerLane.keySet())) {
            throw new IllegalArgumentException("rules missing for lanes " + modelsPerLane.keySet());
        }
        apply(next);
        shared.publish(JSON.writeValueAsString(next));
    }

    /** Back to the configured rules, cluster-wide. */
    public void resetToConfigured() {
        replace(configured);
    }

    private synchronized void apply(Map<Lane, LaneRules> rules) {
        List<FlowRule> flow = new ArrayList<>();
        List<DegradeRule> degrade = new ArrayList<>();
        modelsPerLane.forEach((lane, models) -> {
            LaneRules r = rules.get(lane);
            if (r == null) {
                return;
            }
            for (String model : models) {
                String resource = resource(lane, model);
                FlowRule threads = new FlowRule(resource);
                threads.setGrade(RuleConstant.FLOW_GRADE_THREAD);
                threads.setCount(r.maxThreads());
                flow.add(threads);
                if (r.qps() > 0) {
                    FlowRule qps = new FlowRule(resource);
                    qps.setGrade(RuleConstant.FLOW_GRADE_QPS);
                    qps.setCount(r.qps());
                    flow.add(qps);
                }
                int openSeconds = (int) Math.max(1, r.openFor().toSeconds());
                if (r.slowRatio() > 0) {
                    DegradeRule slow = new DegradeRule(resource);
                    slow.setGrade(RuleConstant.DEGRADE_GRADE_RT);
                    slow.setCount(r.slowCall().toMillis());
                    slow.setSlowRatioThreshold(r.slowRatio());
                    slow.setMinRequestAmount(r.minRequests());
                    slow.setStatIntervalMs((int) r.statInterval().toMillis());
                    slow.setTimeWindow(openSeconds);
                    degrade.add(slow);
                }
                if (r.errorRatio() > 0) {
                    DegradeRule errors = new DegradeRule(resource);
                    errors.setGrade(RuleConstant.DEGRADE_GRADE_EXCEPTION_RATIO);
                    errors.setCount(r.errorRatio());
                    errors.setMinRequestAmount(r.minRequests());
                    errors.setStatIntervalMs((int) r.statInterval().toMillis());
                    errors.setTimeWindow(openSeconds);
                    degrade.add(errors);
                }
            }
        });
        // Sentinel's rule managers are process-wide: rules of every lane and model are loaded together
        FlowRuleManager.loadRules(flow);
        DegradeRuleManager.loadRules(degrade);
        Map<Lane, LaneRules> copy = new EnumMap<>(Lane.class);
        copy.putAll(rules);
        Map<Lane, LaneRules> before = current;
        current = copy;
        // a changed rule gets a new breaker, which starts closed (Sentinel keeps the breakers of unchanged rules)
        copy.forEach((lane, r) -> {
            if (before == null || !r.equals(before.get(lane))) {
                breakerStates.keySet().removeIf(resource -> resource.startsWith("llm:" + lane.key() + ":"));
            }
        });
    }

    private static Map<Lane, LaneRules> decode(String json) {
        Map<Lane, LaneRules> decoded = JSON.readValue(json, new TypeReference<LinkedHashMap<Lane, LaneRules>>() {
        });
        Map<Lane, LaneRules> copy = new EnumMap<>(Lane.class);
        copy.putAll(decoded);
        return copy;
    }

    @Override
    public void close() {
        EventObserverRegistry.getInstance().removeStateChangeObserver(observerName);
        shared.close();
    }
}
