package io.sluice.governance.allocation;

import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.cluster.LuaScript;
import io.sluice.governance.cluster.RedisGuard;
import io.sluice.governance.cluster.SharedSetting;
import io.sluice.governance.gateway.RequestType;
import io.sluice.governance.periodic.PeriodicTask;
import io.sluice.governance.provider.RateLimitInfo;

import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's token budget, allocated by {@link RequestType}. Every call reserves its estimate under its
 * type in one cluster-wide sliding window (a Redis hash of sub-window × type counters, one Lua script, the
 * Redis clock) and settles to what it used. While any one type holds more than {@code share} of the budget
 * in the window, {@code reserve} of what is left may only go to the interactive types: a summary flood
 * can take most of the budget but never the last part a chat answer needs.
 *
 * <p>The budget is on by default: the configured limit, else the providers' last
 * {@code x-ratelimit-limit-tokens} (what the provider really grants), else their configured tpm, else a
 * fallback. When Redis is unreachable each instance counts locally with its share (limit ÷ live
 * instances). Share and reserve are live settings ({@link #replace}): validated, stored in Redis and
 * announced to every instance.
 */
public final class TokenAllocation implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TokenAllocation.class);

    /** The live part: a type above {@code share} of the budget makes {@code reserve} of what is left interactive-only. */
    public record Settings(double share, double reserve) {

        public Settings {
            check(share, reserve);
        }

        /** @throws IllegalArgumentException naming the value */
        static void check(double share, double reserve) {
            if (Double.isNaN(share) || share < 0.05 || share > 1) {
                throw new IllegalArgumentException("the share must be between 0.05 and 1 (5 % to 100 %), was " + share);
            }
            if (Double.isNaN(reserve) || reserve < 0 || reserve > 0.9) {
                throw new IllegalArgumentException("the reserve must be between 0 and 0.9 (0 % to 90 %), was " + reserve);
            }
        }

        String encode() {
            return share + "," + reserve;
        }

        static Settings decode(String raw) {
            String[] parts = raw.split(",");
            if (parts.length != 2) {
                throw new IllegalArgumentException("expected share,reserve");
            }
            return new Settings(Double.parseDouble(parts[0]), Double.parseDouble(parts[1]));
        }

        @Override
        public String toString() {
            return "share " + Math.round(share * 100) + " %, reserve " + Math.round(reserve * 100) + " %";
        }
    }

    /** What {@link #admit} decided. */
    public sealed interface Grant {
        /** Counted under {@code type} in sub-window {@code slot}; settle it after the call. */
        record Admitted(RequestType type, long tokens, long slot, boolean local) implements Grant {
        }

        /** Does not fit; {@code retryIn} is when the oldest counted tokens leave the window. */
        record Refused(RequestType type, Duration retryIn, String reason) implements Grant {
        }
    }

    /** The window as the console shows it. */
    public record Snapshot(long limit, String limitSource, Duration window, long used, Map<RequestType, Long> byType,
            RequestType dominant, boolean reserveActive, long reserved, Settings settings, Set<RequestType> interactive) {

        /** A type's part of the budget (0..1). */
        public double share(RequestType type) {
            return limit <= 0 ? 0 : byType.getOrDefault(type, 0L) / (double) limit;
        }

        public long left() {
            return Math.max(0, limit - used);
        }
    }

    // KEYS[1]: the window hash (fields "<slot>|<type ordinal>" → tokens).
    // ARGV: limit, slotMs, slots, type, tokens, interactive (1/0), share, reserve, mode (1 admit, 0 count, 2 read)
    // Reply: {admitted 1/0, slot or retry ms, tokens left, dominant type or -1, used, tokens of type 0, 1, ...}
    private static final String WINDOW = """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local limit, slotMs, slots = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
        local tokens, mode = tonumber(ARGV[5]), ARGV[9]
        local current = math.floor(now / slotMs)
        local oldest = current - slots + 1
        local fields = redis.call('HGETALL', KEYS[1])
        local used, byType, stale, first = 0, {}, {}, current
        for i = 1, #fields, 2 do
          local f = fields[i]
          local bar = string.find(f, '|', 1, true)
          local slot = tonumber(string.sub(f, 1, bar - 1))
          if slot < oldest then
            stale[#stale + 1] = f
          else
            local v = tonumber(fields[i + 1])
            local ty = tonumber(string.sub(f, bar + 1))
            used = used + v
            byType[ty] = (byType[ty] or 0) + v
            if slot < first and v > 0 then first = slot end
          end
        end
        if #stale > 0 then redis.call('HDEL', KEYS[1], unpack(stale)) end
        local dominant, top = -1, tonumber(ARGV[7]) * limit
        for ty, v in pairs(byType) do
          if v > top then dominant, top = ty, v end
        end
        local left = limit - used
        local allowed = left
        if ARGV[6] ~= '1' and dominant >= 0 then allowed = left * (1 - tonumber(ARGV[8])) end
        local reply = {1, current, math.floor(left), dominant, math.floor(used)}
        for ty = 0, tonumber(ARGV[10]) - 1 do reply[#reply + 1] = math.floor(byType[ty] or 0) end
        if mode == '2' then return reply end
        if mode == '1' and tokens > allowed then
          reply[1] = 0
          reply[2] = math.max(1, (first + slots) * slotMs - now)
          return reply
        end
        redis.call('HINCRBY', KEYS[1], current .. '|' .. ARGV[4], tokens)
        redis.call('PEXPIRE', KEYS[1], slotMs * slots * 2)
        reply[3] = math.floor(left - tokens)
        return reply
        """;

    // KEYS[1]: the window hash. ARGV: field, delta, field, delta, ... A field that already slid out is re-created
    // with the delta and dropped by the next WINDOW run (its slot is old), so a late settle changes nothing.
    private static final String SETTLE = """
        for i = 1, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) end
        return {1}
        """;

    /**
     * How long this instance collects settlements before sending them in one script: one round trip per
     * interval instead of one per call. Until then the window counts the (higher) estimates, so it errs on
     * the safe side; a refusal always settles first and asks again. Tokens reserved ahead (below) live at
     * most this long too.
     */
    static final Duration SETTLE_EVERY = Duration.ofMillis(100);

    /** The most one instance reserves ahead for one type, as a part of the budget: a small budget is never held ahead. */
    static final double MOST_AHEAD = 0.01;

    private static final RequestType[] TYPES = RequestType.values();

    private final AllocationProperties properties;
    private final Set<RequestType> interactive;
    private final RedisGuard guard;
    private final IntSupplier knownInstances;
    private final LongSupplier configuredTpm;
    private final String windowKey;
    private final LuaScript window;
    private final LuaScript settle;
    private final SharedSetting shared;
    private final Settings configured;
    private final long slotMs;
    private final Map<String, Long> headerLimits = new ConcurrentHashMap<>();
    private final LocalWindow local = new LocalWindow();
    private final Map<RequestType, Counter> tokens = new EnumMap<>(RequestType.class);
    private final Map<RequestType, Map<String, Counter>> decisions = new EnumMap<>(RequestType.class);
    private volatile Settings current;
    private volatile Snapshot cached;
    private volatile long cachedAt;
    /** Settlements not yet sent: window field → token delta. */
    private final ReentrantLock unsettledLock = new ReentrantLock();
    private Map<String, Long> unsettled = new HashMap<>();
    /** Held while settlements are on their way to Redis, so that a refusal can wait for the ones the timer is sending. */
    private final ReentrantLock sending = new ReentrantLock();
    /** Settlement scripts that reached Redis so far (written under {@link #sending}). */
    private volatile long sends;
    private final PeriodicTask settler;
    private final Map<RequestType, Ahead> ahead = new EnumMap<>(RequestType.class);

    /**
     * @param configuredTpm the providers' configured tokens per minute, summed (0 = none)
     */
    public TokenAllocation(RedissonClient redisson, AllocationProperties properties, IntSupplier knownInstances,
            LongSupplier configuredTpm, MeterRegistry meters) {
        this(redisson, properties, knownInstances, configuredTpm, meters, SETTLE_EVERY);
    }

    /** @param settleEvery how long settlements are collected before they are sent (tests stretch it) */
    TokenAllocation(RedissonClient redisson, AllocationProperties properties, IntSupplier knownInstances,
            LongSupplier configuredTpm, MeterRegistry meters, Duration settleEvery) {
        this.properties = properties;
        this.interactive = properties.interactive();
        this.guard = new RedisGuard(properties.redisRecheck());
        this.knownInstances = knownInstances;
        this.configuredTpm = configuredTpm;
        // one hash tag: the window hash is one key, in one cluster slot
        this.windowKey = properties.keyPrefix() + "{window}";
        this.window = new LuaScript(redisson, WINDOW);
        this.settle = new LuaScript(redisson, SETTLE);
        this.slotMs = Math.max(1, properties.window().toMillis() / properties.slots());
        this.configured = new Settings(properties.share(), properties.reserve());
        this.current = configured;
        this.shared = new SharedSetting(redisson, properties.keyPrefix() + "settings", guard, this::applyAnnounced);
        shared.stored().ifPresent(this::applyAnnounced);
        for (RequestType type : TYPES) {
            tokens.put(type, Counter.builder("sluice.gateway.allocation.tokens").tag("type", type.key())
                .description("tokens the gateway's calls used, by request type").register(meters));
            Map<String, Counter> byOutcome = new ConcurrentHashMap<>();
            for (String outcome : List.of("admitted", "stepped_down", "refused")) {
                byOutcome.put(outcome, Counter.builder("sluice.gateway.allocation.decisions").tag("type", type.key())
                    .tag("outcome", outcome).description("token allocation decisions by request type").register(meters));
            }
            decisions.put(type, byOutcome);
            Gauge.builder("sluice.gateway.allocation.share", this, a -> a.snapshot().share(type)).tag("type", type.key())
                .description("a request type's part of the token budget in the current window (0..1)").register(meters);
        }
        for (RequestType type : TYPES) {
            ahead.put(type, new Ahead(type));
        }
        this.settler = new PeriodicTask("sluice-allocation-settle", settleEvery, this::tick);
        settler.start();
        Gauge.builder("sluice.gateway.allocation.limit", this, TokenAllocation::limit)
            .description("the token budget per allocation window, cluster-wide").register(meters);
        Gauge.builder("sluice.gateway.allocation.reserve.active", this, a -> a.snapshot().reserveActive() ? 1 : 0)
            .description("1 while one type is over its share and the interactive reserve applies").register(meters);
    }

    public AllocationProperties properties() {
        return properties;
    }

    public boolean interactive(RequestType type) {
        return interactive.contains(type);
    }

    /** The budget per window in force: configured, else learned from provider headers, else configured tpm, else the fallback. */
    public long limit() {
        return source().limit;
    }

    private record Source(long limit, String name) {
    }

    private Source source() {
        if (properties.limit() > 0) {
            return new Source(properties.limit(), "configured");
        }
        double perWindow = properties.window().toMillis() / 60_000.0;
        long fromHeaders = headerLimits.values().stream().mapToLong(Long::longValue).sum();
        if (fromHeaders > 0) {
            return new Source(Math.max(1, Math.round(fromHeaders * perWindow)), "provider x-ratelimit-limit-tokens");
        }
        long tpm = configuredTpm.getAsLong();
        if (tpm > 0) {
            return new Source(Math.max(1, Math.round(tpm * perWindow)), "configured provider tpm");
        }
        return new Source(properties.fallbackLimit(), "fallback-limit");
    }

    /** Learns what a provider grants per minute from its {@code x-ratelimit-limit-tokens}. */
    public void observe(String provider, RateLimitInfo info) {
        if (info != null && info.limitTokens() != null && info.limitTokens() > 0) {
            headerLimits.put(provider, info.limitTokens());
        }
    }

    /** Reserves {@code estimate} tokens for a call of {@code type}, or refuses it (nothing counted then). */
    public Grant admit(RequestType type, long estimate) {
        Ahead reserved = ahead.get(type);
        Grant grant = reserved.take(estimate);
        if (grant == null) {
            grant = reserved.refill(estimate);
        }
        if (grant == null) {
            // no batch to take from (no demand yet, or the batch did not fit): this one call asks for itself
            long sendsBefore = sends;
            grant = admitOnce(type, estimate);
            if (grant instanceof Grant.Refused && settledSince(sendsBefore)) {
                // the window still counted estimates this instance had settled: ask again on settled numbers
                grant = admitOnce(type, estimate);
            }
        }
        if (grant instanceof Grant.Admitted) {
            reserved.demanded(estimate);
        }
        decision(type, grant instanceof Grant.Admitted ? "admitted" : "refused");
        return grant;
    }

    private Grant admitOnce(RequestType type, long estimate) {
        long limit = limit();
        Settings s = current;
        boolean isInteractive = interactive.contains(type);
        return guard.call(() -> {
            List<Long> reply = window.run(List.of(windowKey), limit, slotMs, properties.slots(), type.ordinal(), estimate,
                isInteractive ? 1 : 0, s.share(), s.reserve(), 1, TYPES.length);
            if (reply.get(0) == 1) {
                return (Grant) new Grant.Admitted(type, estimate, reply.get(1), false);
            }
            return refused(type, estimate, limit, reply.get(2), reply.get(3).intValue(), Duration.ofMillis(reply.get(1)), s);
        }, () -> local.admit(type, estimate, isInteractive, share(limit), s));
    }

    /** Counts a stepped-down call (the gateway calls it when a smaller request was admitted after a refusal). */
    public void steppedDown(RequestType type) {
        decision(type, "stepped_down");
    }

    private Grant refused(RequestType type, long estimate, long limit, long left, int dominant, Duration retryIn, Settings s) {
        String why = dominant >= 0 && !interactive.contains(type)
            ? TYPES[dominant].key() + " holds over " + Math.round(s.share() * 100) + " % of the token budget, so "
                + Math.round(s.reserve() * 100) + " % of what is left (" + Math.max(0, left) + " of " + limit
                + ") is kept for interactive calls"
            : "token budget spent: " + Math.max(0, left) + " of " + limit + " tokens left in the window";
        return new Grant.Refused(type, retryIn, "token allocation: a " + type.key() + " call of ~" + estimate
            + " tokens does not fit; " + why);
    }

    /** Replaces the reservation by what the call used (0 = nothing reached the provider). */
    public void settle(Grant grant, long actual) {
        if (!(grant instanceof Grant.Admitted admitted)) {
            return;
        }
        tokens.get(admitted.type()).increment(Math.max(0, actual));
        long delta = actual - admitted.tokens();
        if (delta == 0) {
            return;
        }
        if (admitted.local()) {
            local.add(admitted.slot(), admitted.type(), delta);
            return;
        }
        String field = admitted.slot() + "|" + admitted.type().ordinal();
        unsettle(field, delta);
    }

    private void unsettle(String field, long delta) {
        unsettledLock.lock();
        try {
            unsettled.merge(field, delta, Long::sum);
        } finally {
            unsettledLock.unlock();
        }
    }

    /** The timer: what was reserved ahead and not used goes back, demand is measured anew, settlements are sent. */
    void tick() {
        ahead.values().forEach(Ahead::roll);
        sendSettlements();
    }

    /**
     * Tokens of one type this instance reserved in the window ahead of its calls: when calls of the type are
     * frequent, one script reserves what the last interval used and the next calls take from it locally. They
     * are counted in the window from the start (the cluster never holds more than the budget) and what is left at
     * the next tick goes back as a settlement. At most {@link #MOST_AHEAD} of the budget; a batch that does not
     * fit is never a refusal (the call asks for itself alone).
     */
    private final class Ahead {
        private final RequestType type;
        private final ReentrantLock lock = new ReentrantLock();
        /** Held by the one call reserving the next batch; the calls that find the batch spent meanwhile wait for it. */
        private final ReentrantLock refilling = new ReentrantLock();
        private long slot;
        private long remaining;
        private long demand;
        private long lastDemand;
        /** A batch did not fit in this interval: until the next tick each call asks for itself alone. */
        private boolean batchRefused;

        Ahead(RequestType type) {
            this.type = type;
        }

        /** A grant from what is reserved ahead, or null. */
        Grant take(long estimate) {
            lock.lock();
            try {
                if (remaining < estimate) {
                    return null;
                }
                remaining -= estimate;
                return new Grant.Admitted(type, estimate, slot, false);
            } finally {
                lock.unlock();
            }
        }

        /**
         * This call's grant from a new batch of what the type used in the last interval, or null when there is no
         * batch to take from (no demand yet, or a batch did not fit in this interval). One call reserves it; the calls
         * that find the batch spent while it is on its way wait and take from it. Each reserved a batch of its own
         * before: at a thousand calls in flight dozens did after every tick, a script each and a batch given back.
         */
        Grant refill(long estimate) {
            refilling.lock();
            try {
                Grant grant = take(estimate); // the batch another call reserved while this one waited
                if (grant != null) {
                    return grant;
                }
                long want = batchWanted(estimate, limit());
                if (want == 0) {
                    return null;
                }
                if (admitOnce(type, want) instanceof Grant.Admitted admitted) {
                    return keep(admitted, estimate);
                }
                batchRefused();
                return null;
            } finally {
                refilling.unlock();
            }
        }

        /** What the type used in the last interval, when a batch of it is more than this call and may be asked for; else 0. */
        private long batchWanted(long estimate, long limit) {
            lock.lock();
            try {
                long want = Math.min(lastDemand, (long) (limit * MOST_AHEAD));
                return batchRefused || want <= estimate ? 0 : want;
            } finally {
                lock.unlock();
            }
        }

        private void batchRefused() {
            lock.lock();
            try {
                batchRefused = true;
            } finally {
                lock.unlock();
            }
        }

        /** Keeps what {@code admitted} holds beyond this call's {@code estimate} for the next calls. */
        Grant keep(Grant.Admitted admitted, long estimate) {
            long extra = admitted.tokens() - estimate;
            if (admitted.local()) {
                local.add(admitted.slot(), type, -extra); // Redis is away: no batching on the local window
                return new Grant.Admitted(type, estimate, admitted.slot(), true);
            }
            lock.lock();
            try {
                giveBackLocked();
                slot = admitted.slot();
                remaining = extra;
            } finally {
                lock.unlock();
            }
            return new Grant.Admitted(type, estimate, admitted.slot(), false);
        }

        void demanded(long estimate) {
            lock.lock();
            try {
                demand += estimate;
            } finally {
                lock.unlock();
            }
        }

        void roll() {
            lock.lock();
            try {
                lastDemand = demand;
                demand = 0;
                batchRefused = false;
                giveBackLocked();
            } finally {
                lock.unlock();
            }
        }

        void giveBack() {
            lock.lock();
            try {
                giveBackLocked();
            } finally {
                lock.unlock();
            }
        }

        private void giveBackLocked() {
            if (remaining > 0) {
                unsettle(slot + "|" + type.ordinal(), -remaining);
                remaining = 0;
            }
        }
    }

    /**
     * Whether the window has taken settlements since {@code sendsBefore} was read: this instance's are sent now, after
     * any the timer is sending at this moment. Without the wait a refusal that came while the timer's script was on
     * its way found nothing left to send and stood, on numbers that were about to be settled.
     */
    private boolean settledSince(long sendsBefore) {
        return sendSettlements() || sends != sendsBefore;
    }

    /**
     * Sends the settlements collected since the last time, in one script, and waits for it; false when there
     * were none. What cannot be sent (Redis unreachable) is dropped: the window then counts estimates, the
     * safe side, until those sub-windows slide out.
     */
    boolean sendSettlements() {
        ahead.values().forEach(Ahead::giveBack);
        sending.lock();
        try {
            Object[] batch = takeUnsettled();
            return batch.length > 0 && guard.call(() -> {
                settle.run(List.of(windowKey), batch);
                sends++;
                return true;
            }, () -> false);
        } finally {
            sending.unlock();
        }
    }

    /** The settlements collected so far as the settle script's arguments (field, delta, ...); none: an empty array. */
    private Object[] takeUnsettled() {
        Map<String, Long> batch;
        unsettledLock.lock();
        try {
            if (unsettled.isEmpty()) {
                return new Object[0];
            }
            batch = unsettled;
            unsettled = new HashMap<>();
        } finally {
            unsettledLock.unlock();
        }
        Object[] args = new Object[batch.size() * 2];
        int i = 0;
        for (Map.Entry<String, Long> e : batch.entrySet()) {
            args[i++] = e.getKey();
            args[i++] = e.getValue();
        }
        return args;
    }

    /** Counts tokens a call used without asking first (calls that are never refused by type, e.g. embeddings). */
    public void record(RequestType type, long used) {
        if (used <= 0) {
            return;
        }
        tokens.get(type).increment(used);
        Settings s = current;
        long limit = limit();
        guard.async(onFailure -> window.runAsync(List.of(windowKey), onFailure, limit, slotMs, properties.slots(),
            type.ordinal(), used, 1, s.share(), s.reserve(), 0, TYPES.length), () -> local.record(type, used));
    }

    /** The current window (cached for a second: the dashboard and the gauges read it often). */
    public Snapshot snapshot() {
        Snapshot last = cached;
        long now = System.nanoTime();
        if (last != null && now - cachedAt < 1_000_000_000L) {
            return last;
        }
        Snapshot next = read();
        cached = next;
        cachedAt = now;
        return next;
    }

    /** The window as it is now, uncached (this instance's settlements sent first). */
    public Snapshot read() {
        sendSettlements();
        Source source = source();
        Settings s = current;
        long[] reply = guard.call(() -> {
            List<Long> r = window.run(List.of(windowKey), source.limit, slotMs, properties.slots(), 0, 0, 0, s.share(),
                s.reserve(), 2, TYPES.length);
            return r.stream().mapToLong(Long::longValue).toArray();
        }, () -> local.read(share(source.limit), s));
        Map<RequestType, Long> byType = new EnumMap<>(RequestType.class);
        for (RequestType type : TYPES) {
            byType.put(type, reply[5 + type.ordinal()]);
        }
        long used = reply[4];
        int dominant = (int) reply[3];
        long left = Math.max(0, source.limit - used);
        return new Snapshot(source.limit, source.name, properties.window(), used, Map.copyOf(byType),
            dominant >= 0 ? TYPES[dominant] : null, dominant >= 0, dominant >= 0 ? Math.round(left * s.reserve()) : 0, s,
            interactive);
    }

    public Settings settings() {
        return current;
    }

    public Settings configuredSettings() {
        return configured;
    }

    /** New share and reserve here and on every instance; false when Redis was unreachable (this instance only). */
    public boolean replace(Settings next) {
        current = next;
        cached = null;
        return shared.publish(next.encode());
    }

    /** Back to the configured share and reserve, cluster-wide. */
    public boolean resetToConfigured() {
        current = configured;
        cached = null;
        return shared.publish(null);
    }

    private void applyAnnounced(String raw) {
        cached = null;
        if (raw == null || raw.isBlank()) {
            current = configured;
            return;
        }
        try {
            current = Settings.decode(raw);
        } catch (IllegalArgumentException e) {
            log.warn("gateway: ignored unreadable token allocation settings from the cluster '{}': {}", raw, e.getMessage());
        }
    }

    private long share(long limit) {
        return Math.max(1, limit / Math.max(1, knownInstances.getAsInt()));
    }

    private void decision(RequestType type, String outcome) {
        decisions.get(type).get(outcome).increment();
    }

    @Override
    public void close() {
        settler.close();
        sendSettlements();
        shared.close();
    }

    /** The same window in this instance's memory, for while Redis is unreachable. */
    private final class LocalWindow {
        private final Map<Long, long[]> slots = new java.util.TreeMap<>();

        synchronized Grant admit(RequestType type, long estimate, boolean isInteractive, long limit, Settings s) {
            long[] r = state(limit, s);
            long left = limit - r[4];
            double allowed = !isInteractive && r[3] >= 0 ? left * (1 - s.reserve()) : left;
            if (estimate > allowed) {
                long firstSlot = slots.keySet().stream().findFirst().orElse(r[1]);
                long retry = Math.max(1, (firstSlot + properties.slots()) * slotMs - System.currentTimeMillis());
                return refused(type, estimate, limit, left, (int) r[3], Duration.ofMillis(retry), s);
            }
            add(r[1], type, estimate);
            return new Grant.Admitted(type, estimate, r[1], true);
        }

        synchronized void record(RequestType type, long used) {
            add(System.currentTimeMillis() / slotMs, type, used);
        }

        synchronized void add(long slot, RequestType type, long delta) {
            slots.computeIfAbsent(slot, k -> new long[TYPES.length])[type.ordinal()] += delta;
        }

        synchronized long[] read(long limit, Settings s) {
            return state(limit, s);
        }

        /** Same layout as the script's reply: {1, slot, left, dominant, used, per type...}. */
        private long[] state(long limit, Settings s) {
            long current = System.currentTimeMillis() / slotMs;
            slots.keySet().removeIf(slot -> slot < current - properties.slots() + 1);
            long[] reply = new long[5 + TYPES.length];
            for (long[] perType : slots.values()) {
                for (int i = 0; i < TYPES.length; i++) {
                    reply[5 + i] += perType[i];
                    reply[4] += perType[i];
                }
            }
            reply[0] = 1;
            reply[1] = current;
            reply[2] = limit - reply[4];
            reply[3] = -1;
            double top = s.share() * limit;
            for (int i = 0; i < TYPES.length; i++) {
                if (reply[5 + i] > top) {
                    reply[3] = i;
                    top = reply[5 + i];
                }
            }
            return reply;
        }
    }
}
