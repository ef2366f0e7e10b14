package io.sluice.api.openai.keys;

import java.math.BigDecimal;
import java.sql.Array;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Per-key model scopes and token/cost budgets per UTC day and month, and the spend they are measured
 * against (PostgreSQL: gateway_key_policy, gateway_spend). Policies and today's/this month's spend are
 * cached for {@code policy-cache-ttl}, so a check costs no query on most calls; the spend itself is added
 * on every answer, per key, user, model and provider, and to the cached totals at once.
 *
 * <p>With {@code write-behind} on, an answer's spend is added up in memory per key, user, day, model and
 * provider, and {@link #flush()} writes those sums in one upsert — every {@code flush-every}
 * ({@link GatewayWriteBehind}), on shutdown, and before any read of the spend here (a budget check whose
 * cached totals ran out, the spend API, the console), so a read sees every answer that ended before it.
 * Sums that fail to be written stay for the next flush.
 */
public class KeyBudgets {

    /** What a check decided. */
    public sealed interface Decision {
        record Allowed(KeyPolicy policy) implements Decision {
        }

        record ModelNotAllowed() implements Decision {
        }

        /** Over a budget: {@code retryAfter} is the time to the next UTC day or month. */
        record OverBudget(String which, Duration retryAfter) implements Decision {
        }
    }

    /** Tokens and cost spent. */
    public record Spend(long requests, long promptTokens, long completionTokens, BigDecimal cost) {
        public long tokens() {
            return promptTokens + completionTokens;
        }
    }

    /** One row of spend, per user and model. */
    public record SpendRow(LocalDate day, String userId, String model, String provider, long requests, long promptTokens,
            long completionTokens, BigDecimal cost) {
    }

    private record Cached<T>(T value, long atNanos) {
    }

    /** One row of gateway_spend, as its primary key. */
    private record SpendKey(long clientId, String userId, LocalDate day, String model, String provider) {
    }

    /** What is added to a spend row. */
    private record Added(long requests, long promptTokens, long completionTokens, BigDecimal cost) {
        Added plus(Added more) {
            return new Added(requests + more.requests, promptTokens + more.promptTokens,
                completionTokens + more.completionTokens, cost.add(more.cost));
        }

        Spend addedTo(Spend spend) {
            return new Spend(spend.requests() + requests, spend.promptTokens() + promptTokens,
                spend.completionTokens() + completionTokens, spend.cost().add(cost));
        }
    }

    /** Spend rows per upsert: 9 parameters each. */
    static final int BATCH_ROWS = 500;

    private static final Logger log = LoggerFactory.getLogger(KeyBudgets.class);

    private final JdbcClient jdbc;
    private final KeyBudgetProperties properties;
    private final Clock clock;
    private final Map<Long, Cached<KeyPolicy>> policies = new ConcurrentHashMap<>();
    /** Keys whose policy one caller is reading again right now. */
    private final Set<Long> refreshing = ConcurrentHashMap.newKeySet();
    private final Map<Long, Cached<Spend[]>> spends = new ConcurrentHashMap<>();
    private final Map<SpendKey, Added> pending = new ConcurrentHashMap<>();
    private final ReentrantLock flushing = new ReentrantLock();

    public KeyBudgets(JdbcClient jdbc, KeyBudgetProperties properties, Clock clock) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.clock = clock;
    }

    public KeyBudgetProperties properties() {
        return properties;
    }

    /**
     * The key's policy, read again at most once per {@code policy-cache-ttl}. When it is due, one caller reads it
     * while the key's other calls keep the policy they had; when the database cannot answer (down, or its pool
     * exhausted under a burst of calls), the last known policy stays in force for another TTL instead of the call
     * failing. Only a key never read before needs the database to answer.
     */
    public KeyPolicy policy(long clientId) {
        Cached<KeyPolicy> cached = policies.get(clientId);
        if (cached != null && fresh(cached.atNanos())) {
            return cached.value();
        }
        if (cached != null && !refreshing.add(clientId)) {
            return cached.value(); // another caller of this key is reading it again
        }
        boolean reading = cached != null;
        try {
            KeyPolicy policy = read(clientId);
            policies.put(clientId, new Cached<>(policy, System.nanoTime()));
            return policy;
        } catch (DataAccessException e) {
            if (cached == null) {
                throw e;
            }
            log.warn("key budgets: could not read the policy of client {} ({}); the last known one stays for {}",
                clientId, e.getClass().getSimpleName(), properties.policyCacheTtl());
            policies.replace(clientId, cached, new Cached<>(cached.value(), System.nanoTime()));
            return cached.value();
        } finally {
            if (reading) {
                refreshing.remove(clientId);
            }
        }
    }

    private KeyPolicy read(long clientId) {
        return jdbc.sql("""
                SELECT allowed_models, daily_tokens, monthly_tokens, daily_cost, monthly_cost, allow_degraded,
                       semantic_cache
                FROM gateway_key_policy WHERE client_id = ?""")
            .param(clientId)
            .query((rs, n) -> {
                Array models = rs.getArray(1);
                return new KeyPolicy(models == null ? List.of() : Arrays.asList((String[]) models.getArray()),
                    (Long) rs.getObject(2), (Long) rs.getObject(3), rs.getBigDecimal(4), rs.getBigDecimal(5), rs.getBoolean(6),
                    rs.getBoolean(7));
            })
            .optional().orElse(KeyPolicy.OPEN);
    }

    /** Replaces a key's policy (validated by {@link KeyPolicy}); the previous one is returned for the audit. */
    public KeyPolicy setPolicy(long clientId, KeyPolicy policy) {
        KeyPolicy before = policy(clientId);
        jdbc.sql("""
                INSERT INTO gateway_key_policy (client_id, allowed_models, daily_tokens, monthly_tokens, daily_cost,
                                                monthly_cost, allow_degraded, semantic_cache, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, now())
                ON CONFLICT (client_id) DO UPDATE SET allowed_models = EXCLUDED.allowed_models,
                    daily_tokens = EXCLUDED.daily_tokens, monthly_tokens = EXCLUDED.monthly_tokens,
                    daily_cost = EXCLUDED.daily_cost, monthly_cost = EXCLUDED.monthly_cost,
                    allow_degraded = EXCLUDED.allow_degraded, semantic_cache = EXCLUDED.semantic_cache, updated_at = now()""")
            .params(clientId, policy.allowedModels().toArray(String[]::new), policy.dailyTokens(), policy.monthlyTokens(),
                policy.dailyCost(), policy.monthlyCost(), policy.allowDegraded(), policy.semanticCache())
            .update();
        policies.remove(clientId);
        return before;
    }

    /** Whether the key may call this model now (model scope, then day and month budgets). */
    public Decision check(long clientId, String requested, String route) {
        KeyPolicy policy = policy(clientId);
        if (!policy.allows(requested, route)) {
            return new Decision.ModelNotAllowed();
        }
        if (policy.dailyTokens() == null && policy.monthlyTokens() == null && policy.dailyCost() == null
                && policy.monthlyCost() == null) {
            return new Decision.Allowed(policy);
        }
        Spend[] spent = spent(clientId);
        ZonedDateTime now = ZonedDateTime.now(clock.withZone(ZoneOffset.UTC));
        Duration toTomorrow = Duration.between(now, now.toLocalDate().plusDays(1).atStartOfDay(ZoneOffset.UTC));
        Duration toNextMonth = Duration.between(now, now.toLocalDate().withDayOfMonth(1).plusMonths(1)
            .atStartOfDay(ZoneOffset.UTC));
        if (policy.dailyTokens() != null && spent[0].tokens() >= policy.dailyTokens()) {
            return new Decision.OverBudget("daily token budget", toTomorrow);
        }
        if (policy.dailyCost() != null && spent[0].cost().compareTo(policy.dailyCost()) >= 0) {
            return new Decision.OverBudget("daily cost budget", toTomorrow);
        }
        if (policy.monthlyTokens() != null && spent[1].tokens() >= policy.monthlyTokens()) {
            return new Decision.OverBudget("monthly token budget", toNextMonth);
        }
        if (policy.monthlyCost() != null && spent[1].cost().compareTo(policy.monthlyCost()) >= 0) {
            return new Decision.OverBudget("monthly cost budget", toNextMonth);
        }
        return new Decision.Allowed(policy);
    }

    /** Adds one answer's tokens and cost to the key's spend (and to the cached totals at once). */
    public void record(long clientId, String userId, String model, String provider, int promptTokens, int completionTokens) {
        SpendKey key = new SpendKey(clientId, userId, today(), model == null ? "unknown" : model,
            provider == null ? "default" : provider);
        Added added = new Added(1, promptTokens, completionTokens, properties.cost(model, promptTokens, completionTokens));
        KeyBudgetProperties.WriteBehind writeBehind = properties.writeBehind();
        if (!writeBehind.enabled() || pending.size() >= writeBehind.maxPending() && !pending.containsKey(key)) {
            upsert(List.of(Map.entry(key, added))); // off, or PostgreSQL is behind: this call writes its own
            spends.remove(clientId);
            return;
        }
        pending.merge(key, added, Added::plus);
        spends.computeIfPresent(clientId, (id, cached) -> new Cached<>(
            new Spend[] {added.addedTo(cached.value()[0]), added.addedTo(cached.value()[1])}, cached.atNanos()));
    }

    /** Spend rows added up and not yet written. */
    public int pending() {
        return pending.size();
    }

    /**
     * Writes every spend sum still in memory (one flush at a time, so a read that flushes also waits for a
     * flush already under way); a sum that fails to be written is added back for the next flush.
     */
    public void flush() {
        if (pending.isEmpty() && !flushing.isLocked()) {
            return;
        }
        flushing.lock();
        try {
            var keys = pending.keySet().iterator();
            GatewayWriteBehind.inBatches(() -> {
                while (keys.hasNext()) {
                    SpendKey key = keys.next();
                    Added added = pending.remove(key);
                    if (added != null) {
                        return Map.entry(key, added);
                    }
                }
                return null;
            }, BATCH_ROWS, this::write);
        } finally {
            flushing.unlock();
        }
    }

    private void write(List<Map.Entry<SpendKey, Added>> batch) {
        try {
            upsert(batch);
        } catch (RuntimeException e) {
            batch.forEach(row -> pending.merge(row.getKey(), row.getValue(), Added::plus));
            log.warn("gateway spend: {} rows not written, kept for the next flush: {}", batch.size(), e.toString());
        }
    }

    /** One statement for distinct rows (a row may appear once per upsert). */
    private void upsert(List<Map.Entry<SpendKey, Added>> rows) {
        StringBuilder sql = new StringBuilder("""
            INSERT INTO gateway_spend (client_id, user_id, day, model, provider, requests, prompt_tokens,
                                       completion_tokens, cost) VALUES """);
        List<Object> params = new ArrayList<>(rows.size() * 9);
        for (Map.Entry<SpendKey, Added> row : rows) {
            SpendKey k = row.getKey();
            Added a = row.getValue();
            sql.append(params.isEmpty() ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?, ?)");
            params.addAll(List.of(k.clientId(), k.userId(), k.day(), k.model(), k.provider(), a.requests(),
                a.promptTokens(), a.completionTokens(), a.cost()));
        }
        sql.append("""

             ON CONFLICT (client_id, day, user_id, model, provider) DO UPDATE SET
                requests = gateway_spend.requests + EXCLUDED.requests,
                prompt_tokens = gateway_spend.prompt_tokens + EXCLUDED.prompt_tokens,
                completion_tokens = gateway_spend.completion_tokens + EXCLUDED.completion_tokens,
                cost = gateway_spend.cost + EXCLUDED.cost""");
        jdbc.sql(sql.toString()).params(params).update();
    }

    /** Today's and this month's spend of a key: [day, month]. */
    public Spend[] spent(long clientId) {
        Cached<Spend[]> cached = spends.get(clientId);
        if (cached != null && fresh(cached.atNanos())) {
            return cached.value();
        }
        flush();
        LocalDate today = today();
        Spend day = sum(clientId, today, today);
        Spend month = sum(clientId, today.withDayOfMonth(1), today);
        Spend[] both = {day, month};
        spends.put(clientId, new Cached<>(both, System.nanoTime()));
        return both;
    }

    /** Spend rows of a key between two days (inclusive), newest first, per user, model and provider. */
    public List<SpendRow> rows(long clientId, LocalDate from, LocalDate to) {
        flush();
        return jdbc.sql("""
                SELECT day, user_id, model, provider, requests, prompt_tokens, completion_tokens, cost
                FROM gateway_spend WHERE client_id = ? AND day BETWEEN ? AND ?
                ORDER BY day DESC, user_id, model, provider LIMIT 1000""")
            .params(clientId, from, to)
            .query((rs, n) -> new SpendRow(rs.getObject(1, LocalDate.class), rs.getString(2), rs.getString(3),
                rs.getString(4), rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getBigDecimal(8)))
            .list();
    }

    /** Spend of one key and user over a period (the console's table). */
    public record KeyUserSpend(long clientId, String clientName, String userId, long requests, long promptTokens,
            long completionTokens, BigDecimal cost) {
    }

    /** Every key's spend per user from {@code from} to today (UTC), the highest cost and tokens first. */
    public List<KeyUserSpend> byKeyAndUser(LocalDate from, int limit) {
        flush();
        return jdbc.sql("""
                SELECT s.client_id, c.name, s.user_id, sum(s.requests), sum(s.prompt_tokens), sum(s.completion_tokens),
                       sum(s.cost) AS cost
                FROM gateway_spend s JOIN api_client c ON c.id = s.client_id
                WHERE s.day >= ?
                GROUP BY s.client_id, c.name, s.user_id
                ORDER BY cost DESC, sum(s.prompt_tokens + s.completion_tokens) DESC LIMIT ?""")
            .params(from, limit)
            .query((rs, n) -> new KeyUserSpend(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getLong(5),
                rs.getLong(6), rs.getBigDecimal(7)))
            .list();
    }

    private Spend sum(long clientId, LocalDate from, LocalDate to) {
        return jdbc.sql("""
                SELECT coalesce(sum(requests), 0), coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0),
                       coalesce(sum(cost), 0)
                FROM gateway_spend WHERE client_id = ? AND day BETWEEN ? AND ?""")
            .params(clientId, from, to)
            .query((rs, n) -> new Spend(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getBigDecimal(4)))
            .single();
    }

    private LocalDate today() {
        return LocalDate.now(clock.withZone(ZoneOffset.UTC));
    }

    private boolean fresh(long atNanos) {
        return System.nanoTime() - atNanos < properties.policyCacheTtl().toNanos();
    }
}
