package io.sluice.api.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.chat.Answer;
import io.sluice.api.chat.ChatContext;
import io.sluice.api.chat.ChatResponse;
import io.sluice.api.chat.SemanticCache;
import io.sluice.api.intent.IntentResult;
import io.sluice.api.intent.Priority;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.DegradationProperties;
import io.sluice.governance.degradation.LevelKnobs;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.semantics.pairs.PairFeatures;

import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.databind.ObjectMapper;

/**
 * The semantic cache, shared by all instances through Redis.
 *
 * <p><b>Key space</b> = client (tenant) × model route × prompt version × knowledge (FAQ snapshot)
 * version: a new snapshot or prompt starts an empty space, old ones expire. Per space, Redis holds
 * {@code :x} (hash: normalized-question hash → entry id, the L1 exact index), {@code :e} (hash: id →
 * entry JSON with its vector), {@code :o} (sorted set by age, to drop the oldest beyond
 * {@code max-entries}) and {@code :v} (a version bumped by every write). No Redis vector search
 * here: every instance keeps a <b>local mirror</b> of a space's vectors and scans it in memory
 * (512 floats × a few thousand entries is well under a millisecond); the L1 script returns the
 * space's version in the same round trip, so a stale mirror is reloaded before it is used.
 *
 * <p><b>Single-flight</b>, cluster-wide: the first miss for a normalized question takes a leased
 * Redis lock ({@code SET NX PX}); later identical questions wait (bounded by {@code flight-wait}) for
 * the leader's entry — on the same instance on a local future, on other instances by polling L1 —
 * then are served from it. The leader releases the lock in {@link #offer}; a leader that crashed or
 * threw frees it when the lease ends.
 *
 * <p><b>Invalidation</b>: each entry's sources (e.g. {@code faq:12}, {@code doc:policy-returns})
 * index it in {@code src:<id>} sets; {@link #invalidateSource} drops every entry depending on it.
 */
public final class RedisSemanticCache implements SemanticCache {

    private static final Logger log = LoggerFactory.getLogger(RedisSemanticCache.class);

    // an exact-index value is an entry id, or "id~similarity" for a question an L2 hit answered (refreshed L1).
    // ARGV[2]: the entry id this instance already holds for the question ('' = none). An entry never changes
    // under its id (a new answer is a new id), so a known id that still exists comes back as '=', not as JSON
    private static final String LOOKUP = """
        local id = redis.call('HGET', KEYS[1], ARGV[1])
        local entry = ''
        local similarity = ''
        if id then
          local sep = string.find(id, '~', 1, true)
          if sep then similarity = string.sub(id, sep + 1); id = string.sub(id, 1, sep - 1) end
          if id == ARGV[2] and redis.call('HEXISTS', KEYS[2], id) == 1 then entry = '='
          else entry = redis.call('HGET', KEYS[2], id) or '' end
        end
        return {entry, redis.call('GET', KEYS[3]) or '0', similarity}
        """;

    private static final String KNOWN = "=";
    private static final int MAX_KNOWN = 4096;

    // Each script that changes what a question resolves to says so on the change channel in the same step
    // ("space \t hash \t id of an entry gone"): instances drop their near hits of it at once (NearHits)

    // KEYS: x (one key space); ARGV: hash, "id~similarity", channel, space. Never over a question's own entry
    private static final String ALIAS = """
        local old = redis.call('HGET', KEYS[1], ARGV[1])
        if old and not string.find(old, '~', 1, true) then return 0 end
        redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
        if old then redis.call('PUBLISH', ARGV[3], ARGV[4] .. '\t' .. ARGV[1] .. '\t') end
        return 1
        """;

    // KEYS: x, e, o, v (one key space, one hash tag); ARGV: hash, id, json, now, max, ttlMs, channel, space
    private static final String STORE = """
        local old = redis.call('HGET', KEYS[1], ARGV[1])
        if old then
          redis.call('HDEL', KEYS[2], old); redis.call('ZREM', KEYS[3], old)
          -- an alias ("id~similarity") names another question's entry, which stays
          if string.find(old, '~', 1, true) then old = '' end
          redis.call('PUBLISH', ARGV[7], ARGV[8] .. '\t' .. ARGV[1] .. '\t' .. old)
        end
        redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
        redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
        redis.call('ZADD', KEYS[3], ARGV[4], ARGV[2])
        local over = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[5])
        if over > 0 then
          for _, gone in ipairs(redis.call('ZPOPMIN', KEYS[3], over)) do redis.call('HDEL', KEYS[2], gone) end
        end
        redis.call('INCR', KEYS[4])
        for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
        return old or ''
        """;

    // KEYS: src; ARGV: member "space|id|hash", ttlMs. Separate from STORE: a source index lives in its own
    // Redis Cluster slot, a key space (tagged {hash}) in another
    private static final String INDEX = """
        redis.call('SADD', KEYS[1], ARGV[1])
        redis.call('PEXPIRE', KEYS[1], ARGV[2])
        return 1
        """;

    // KEYS: x, e, o, v; ARGV: id, hash, channel, space
    private static final String DROP = """
        if redis.call('HDEL', KEYS[2], ARGV[1]) == 0 then return 0 end
        redis.call('ZREM', KEYS[3], ARGV[1])
        if redis.call('HGET', KEYS[1], ARGV[2]) == ARGV[1] then redis.call('HDEL', KEYS[1], ARGV[2]) end
        redis.call('INCR', KEYS[4])
        redis.call('PUBLISH', ARGV[3], ARGV[4] .. '\t' .. ARGV[2] .. '\t' .. ARGV[1])
        return 1
        """;

    private static final String RELEASE = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """;

    private static final long POLL_MS = 25;
    private static final long PURGE_LEADERS_EVERY_NANOS = 1_000_000_000L;

    private final AtomicLong lastLeaderPurge = new AtomicLong(System.nanoTime());
    private final RedissonClient redisson;
    private final Embedder embedder;
    private final ObjectMapper json;
    private final CacheProperties properties;
    private final LongSupplier knowledgeVersion;
    private final TurnEligibility eligibility;
    private final HitVerifier verifier;
    private final L2Matcher matcher;
    private final Map<String, Mirror> mirrors = new ConcurrentHashMap<>();
    // a space's name is a SHA-256 of what it is made of: named once, not per lookup
    private final Map<SpaceName, String> spaceNames = new ConcurrentHashMap<>();
    // exact-hit entries already read (without their vectors), by space + question hash: a repeat L1 hit reads an id
    private final Map<String, CacheEntry> known = new ConcurrentHashMap<>();
    // exact hits served again without a round trip, dropped on any instance's change (the change channel)
    private final NearHits near;
    private final String changeChannel;
    private final Map<String, LocalFlight> localFlights = new ConcurrentHashMap<>();
    private final Map<UUID, LocalFlight> leading = new ConcurrentHashMap<>();
    private final MeterRegistry meters;
    private volatile java.util.function.Function<DegradationLevel, LevelKnobs> levels =
        DegradationProperties.defaults().levels()::get;
    private final Counter stores;
    private final Counter invalidated;
    private final Counter l1Hits;
    private final Counter l1Misses;

    public RedisSemanticCache(RedissonClient redisson, Embedder embedder, ObjectMapper json, CacheProperties properties,
            LongSupplier knowledgeVersion, TurnEligibility eligibility, HitVerifier verifier, MeterRegistry meters) {
        this.redisson = redisson;
        this.embedder = embedder;
        this.json = json;
        this.properties = properties;
        this.knowledgeVersion = knowledgeVersion;
        this.eligibility = eligibility;
        this.verifier = verifier;
        this.matcher = new L2Matcher(verifier);
        this.meters = meters;
        this.changeChannel = properties.keyPrefix() + "changes";
        this.near = new NearHits(redisson, changeChannel, properties.nearHitAge(), meters);
        this.stores = Counter.builder("sluice.cache.stores").description("answers put into the semantic cache")
            .register(meters);
        this.invalidated = Counter.builder("sluice.cache.invalidated")
            .description("entries dropped because a source changed").register(meters);
        this.l1Hits = meters.counter("sluice.cache.lookups", "layer", "l1", "result", "hit");
        this.l1Misses = meters.counter("sluice.cache.lookups", "layer", "l1", "result", "miss");
        io.micrometer.core.instrument.Gauge.builder("sluice.cache.l1.known", known, Map::size)
            .description("exact-hit entries this instance holds (an L1 hit on one reads only its id from Redis)")
            .register(meters);
    }

    /** A space's entries as this instance last read them, by entry id (an entry never changes under its id). */
    private record Mirror(String version, List<L2Matcher.Candidate<CacheEntry>> candidates,
            Map<String, L2Matcher.Candidate<CacheEntry>> byId) {
    }

    private record LocalFlight(String lockKey, String token, CompletableFuture<Optional<Hit>> result, long deadlineNanos) {
        boolean live() {
            return System.nanoTime() - deadlineNanos < 0;
        }
    }

    /** Where the knobs of every level come from (the one level→knobs map: the degradation policy). */
    public void levels(java.util.function.Function<DegradationLevel, LevelKnobs> knobs) {
        this.levels = knobs;
    }

    /**
     * The key spaces a request looks in: its own route's, then — at a degraded level whose route is another
     * — the routes of the better levels (L0's primary answers are the ones worth serving when the level has
     * moved to the light route and can afford little itself).
     */
    List<String> spaces(ChatContext ctx) {
        String own = space(ctx);
        if (ctx.knobs() == null || ctx.level() == null) {
            return List.of(own);
        }
        List<String> out = new ArrayList<>(List.of(own));
        for (DegradationLevel better : DegradationLevel.values()) {
            if (better.ordinal() >= ctx.level().ordinal()) {
                break;
            }
            LevelKnobs k = levels.apply(better);
            if (k != null && !k.modelRoute().equals(ctx.knobs().modelRoute())) {
                String space = space(ctx.client().id(), k.modelRoute());
                if (!out.contains(space)) {
                    out.add(space);
                }
            }
        }
        return out;
    }

    /** How long past its logical expiry an entry is served at this request's level. */
    private static long graceMs(ChatContext ctx) {
        return ctx.knobs() == null ? 0 : ctx.knobs().cacheGrace().toMillis();
    }

    private static boolean shortForm(ChatContext ctx) {
        return ctx.knobs() != null && ctx.knobs().cacheShortForm();
    }

    /** Redis keeps entries this long: the ttl plus the longest grace any level gives. */
    private long physicalTtlMs() {
        long grace = 0;
        for (DegradationLevel level : DegradationLevel.values()) {
            LevelKnobs k = levels.apply(level);
            if (k != null) {
                grace = Math.max(grace, k.cacheGrace().toMillis());
            }
        }
        return properties.ttl().toMillis() + grace;
    }

    /** The key space of a request: client × route × prompt version × knowledge version. */
    String space(ChatContext ctx) {
        return space(ctx.client().id(), ctx.knobs() == null ? "default" : ctx.knobs().modelRoute());
    }

    /** The key space of a client's questions on a model route, at the current prompt and knowledge versions. */
    String space(long clientId, String route) {
        long version = knowledgeVersion.getAsLong();
        SpaceName key = new SpaceName(clientId, route, version);
        String name = spaceNames.get(key);
        if (name == null) {
            // the hash is the space's hash tag: its keys (x, e, o, v, f:…) share one Redis Cluster slot
            name = properties.keyPrefix() + "s:{" + QuestionText.hash(clientId + "|" + route + "|"
                + properties.promptVersion() + "|" + version) + "}";
            if (spaceNames.size() >= 1024) {
                spaceNames.clear();
            }
            spaceNames.put(key, name);
        }
        return name;
    }

    /** What a key space's name is made of, besides the prompt version (fixed for the instance's life). */
    private record SpaceName(long clientId, String route, long knowledgeVersion) {
    }

    private boolean eligible(ChatContext ctx) {
        List<?> turns = ctx.session() == null ? List.of() : ctx.session().recentTurns();
        String refusal = eligibility.refusal(ctx.message(), turns);
        if (refusal != null) {
            count("sluice.cache.skipped", "reason", refusal);
            return false;
        }
        return true;
    }

    @Override
    public Optional<Hit> lookup(ChatContext ctx) {
        if (!eligible(ctx)) {
            return Optional.empty();
        }
        List<String> spaces = spaces(ctx);
        String space = spaces.get(0);
        String normalized = QuestionText.normalize(ctx.message());
        String hash = QuestionText.hash(normalized);
        for (String candidate : spaces) {
            Optional<Hit> nearHit = nearHit(candidate, hash, graceMs(ctx), shortForm(ctx));
            if (nearHit.isPresent()) {
                l1Hits.increment();
                return nearHit;
            }
            long changesBefore = near.changes();
            List<Object> l1;
            try {
                l1 = l1(candidate, hash);
            } catch (RuntimeException e) {
                count("sluice.cache.errors", "op", "lookup");
                log.warn("semantic cache: Redis lookup failed, answering without the cache: {}", e.toString());
                return Optional.empty();
            }
            Optional<Hit> exact = toHit(candidate, hash, l1.get(0), similarity(l1), graceMs(ctx), shortForm(ctx),
                changesBefore);
            (exact.isPresent() ? l1Hits : l1Misses).increment();
            if (exact.isPresent()) {
                return exact;
            }
            Optional<Hit> semantic = l2(ctx, candidate, String.valueOf(l1.get(1)), hash);
            if (semantic.isPresent()) {
                return semantic;
            }
        }
        return singleFlight(ctx, space, hash);
    }

    /** An exact hit's similarity: 1.0, or the one an L2 hit was verified at when it refreshed L1. */
    private static double similarity(List<Object> l1) {
        Object s = l1.size() > 2 ? l1.get(2) : null;
        if (s instanceof String text && !text.isEmpty()) {
            try {
                return Double.parseDouble(text);
            } catch (NumberFormatException e) {
                return 1.0;
            }
        }
        return 1.0;
    }

    private List<Object> l1(String space, String hash) {
        CacheEntry mine = known.get(space + hash);
        return redisson.getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_ONLY, LOOKUP, RScript.ReturnType.MULTI,
            List.of(space + ":x", space + ":e", space + ":v"), hash, mine == null ? "" : mine.id());
    }

    /** An exact hit Redis named recently and no instance has changed since (NearHits), or empty: ask Redis. */
    private Optional<Hit> nearHit(String space, String hash, long graceMs, boolean shortForm) {
        NearHits.Near hit = near.get(space + hash);
        return hit == null ? Optional.empty() : served(hit.entry(), hit.similarity(), graceMs, shortForm);
    }

    /**
     * The exact hit an L1 answer names: the entry read now, or the one this instance read before ({@code =}); kept
     * as a near hit unless a change was announced since {@code changesBefore} (read before the round trip).
     */
    private Optional<Hit> toHit(String space, String hash, Object raw, double similarity, long graceMs, boolean shortForm,
            long changesBefore) {
        if (!(raw instanceof String text) || text.isEmpty()) {
            return Optional.empty();
        }
        CacheEntry entry = text.equals(KNOWN) ? known.get(space + hash) : null;
        if (entry == null) {
            if (text.equals(KNOWN)) {
                // forgotten between the script and here (the map was trimmed): read it again, in full
                known.remove(space + hash);
                List<Object> again = l1(space, hash);
                return toHit(space, hash, again.get(0), similarity(again), graceMs, shortForm, changesBefore);
            }
            entry = json.readValue(text, CacheEntry.class).withoutVector();
            if (known.size() >= MAX_KNOWN) {
                known.clear();
            }
            known.put(space + hash, entry);
        }
        near.confirm(space + hash, entry, similarity, changesBefore);
        return served(entry, similarity, graceMs, shortForm);
    }

    /** An exact hit's entry as served at this level: nothing past its expiry and the level's grace. */
    private Optional<Hit> served(CacheEntry entry, double similarity, long graceMs, boolean shortForm) {
        if (entry.expiresAt() + graceMs < System.currentTimeMillis()) {
            return Optional.empty();
        }
        stale(entry, graceMs);
        return Optional.of(new Hit(answerOf(entry, shortForm), similarity, storedIntent(entry)));
    }

    /** The classification the entry's question was stored with, or null (warmed or older entries). */
    private static IntentResult storedIntent(CacheEntry entry) {
        if (entry.intentCode() == null || entry.priority() == null) {
            return null;
        }
        try {
            return new IntentResult(entry.intentCode(), Priority.valueOf(entry.priority()), 1.0, "cache", List.of());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Counts a hit served only thanks to the level's grace (past its ttl). */
    private void stale(CacheEntry entry, long graceMs) {
        if (graceMs > 0 && entry.expiresAt() < System.currentTimeMillis()) {
            count("sluice.cache.grace_hits");
        }
    }

    private Answer answerOf(CacheEntry entry, boolean shortForm) {
        if (shortForm && entry.shortAnswer() != null && !entry.shortAnswer().isBlank()) {
            count("sluice.cache.short_forms");
            return new Answer(entry.shortAnswer(), FidelityTier.valueOf(entry.tier()), entry.sources());
        }
        return new Answer(entry.answer(), FidelityTier.valueOf(entry.tier()), entry.sources());
    }

    private Optional<Hit> l2(ChatContext ctx, String space, String version, String hash) {
        double threshold = ctx.knobs() == null ? 0.92 : ctx.knobs().cacheThreshold();
        String level = ctx.level() == null ? "L0" : ctx.level().name();
        return l2(ctx.message(), space, version, hash, level, threshold, intentKey(ctx), ctx);
    }

    /**
     * L2: the nearest stored question, accepted only through the verifier (the chat's and /v1's alike). With a
     * chat context ({@code ctx}, null on /v1) the hit is put in the review queue, the level's grace and short
     * form apply.
     */
    private Optional<Hit> l2(String message, String space, String version, String hash, String level, double threshold,
            String intent, ChatContext ctx) {
        float[] vector;
        try {
            vector = embedder.embed(message);
        } catch (RuntimeException e) {
            count("sluice.cache.errors", "op", "embed");
            return Optional.empty();
        }
        Mirror mirror = mirror(space, version);
        long now = System.currentTimeMillis();
        long grace = ctx == null ? 0 : graceMs(ctx);
        List<L2Matcher.Candidate<CacheEntry>> live = mirror.candidates().stream()
            .filter(c -> c.value().expiresAt() + grace >= now).toList();
        L2Matcher.Outcome<CacheEntry> outcome = matcher.match(message, vector, level, threshold,
            new PairFeatures.Labels(intent, null), live);
        if (outcome.rejected() != null) {
            count("sluice.cache.rejections", "reason", outcome.rejected().name().toLowerCase(java.util.Locale.ROOT));
        }
        count("sluice.cache.lookups", "layer", "l2", "result", outcome.match().isPresent() ? "hit" : "miss");
        if (ctx != null) {
            outcome.match().ifPresent(m -> review(ctx, m, level, outcome.modelVersion()));
        }
        outcome.match().ifPresent(m -> {
            stale(m.value(), grace);
            refreshL1(space, hash, m.value(), Math.round(m.similarity() * 10000) / 10000.0);
        });
        boolean shortForm = ctx != null && shortForm(ctx);
        return outcome.match().map(m -> new Hit(answerOf(m.value(), shortForm),
            Math.round(m.similarity() * 10000) / 10000.0));
    }

    /**
     * An L2 hit refreshes L1: the asked question's exact hash now points at the entry it was served (with the
     * similarity it was verified at), so the next identical question is one Redis read, no embedding or scan.
     * A question's own stored entry is never overwritten by such a pointer.
     */
    private void refreshL1(String space, String hash, CacheEntry entry, double similarity) {
        try {
            Number n = redisson.getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_WRITE, ALIAS,
                RScript.ReturnType.INTEGER, List.of(space + ":x"), hash, entry.id() + "~" + similarity, changeChannel,
                space);
            if (n.longValue() > 0) {
                changed(space, hash, "");
                count("sluice.cache.l1_refreshed");
            }
        } catch (RuntimeException e) {
            count("sluice.cache.errors", "op", "refresh");
        }
    }

    /**
     * The key space of a /v1 call: the client × the route × everything of the request except the user's
     * text ({@code context}: its system messages and parameters), at the current prompt and knowledge versions.
     */
    public String v1Space(long clientId, String route, String context) {
        return space(clientId, "v1|" + route + "|" + QuestionText.hash(context));
    }

    /**
     * A /v1 lookup of one standalone user turn: the exact question (L1), then a similar one accepted by the
     * same verifier as the chat's (L2). No single flight: a /v1 caller is not kept waiting on another's call.
     * Empty when the question may not be cached (personal data, too long) or nothing matches.
     */
    public Optional<Hit> lookup(String space, String question, String level, double threshold) {
        String refusal = eligibility.refusal(question, List.of());
        if (refusal != null) {
            count("sluice.cache.skipped", "reason", refusal);
            return Optional.empty();
        }
        try {
            String hash = QuestionText.hash(QuestionText.normalize(question));
            Optional<Hit> nearHit = nearHit(space, hash, 0, false);
            if (nearHit.isPresent()) {
                l1Hits.increment();
                return nearHit;
            }
            long changesBefore = near.changes();
            List<Object> l1 = l1(space, hash);
            Optional<Hit> exact = toHit(space, hash, l1.get(0), similarity(l1), 0, false, changesBefore);
            (exact.isPresent() ? l1Hits : l1Misses).increment();
            return exact.isPresent() ? exact : l2(question, space, String.valueOf(l1.get(1)), hash, level, threshold, null, null);
        } catch (RuntimeException e) {
            count("sluice.cache.errors", "op", "lookup");
            log.warn("semantic cache (/v1): lookup failed, answering without the cache: {}", e.toString());
            return Optional.empty();
        }
    }

    /** Stores a provider's /v1 answer to one standalone user turn (nothing when the question may not be cached). */
    public void store(String space, String question, String answer) {
        if (answer == null || answer.isBlank() || eligibility.refusal(question, List.of()) != null) {
            return;
        }
        try {
            put(space, question, new Answer(answer, FidelityTier.F4, List.of()), System.currentTimeMillis(), null);
        } catch (RuntimeException e) {
            count("sluice.cache.errors", "op", "store");
            log.warn("semantic cache (/v1): could not store an answer: {}", e.toString());
        }
    }

    /** The intent the request was classified with, as the pair model's agreement feature reads it. */
    private static String intentKey(ChatContext ctx) {
        return intentKey(ctx.intent());
    }

    private static String intentKey(IntentResult intent) {
        return intent == null ? null : String.valueOf(intent.intent());
    }

    /** Hands a sample of served L2 hits to the console's review queue (off the request thread). */
    private void review(ChatContext ctx, L2Matcher.Match<CacheEntry> match, String level, long modelVersion) {
        ServedHitSink sink = reviewSink;
        if (sink != null) {
            try {
                sink.served(ctx.message(), match.question(), match.similarity(),
                    Double.isNaN(match.probability()) ? null : match.probability(), level, modelVersion,
                    ctx.client() == null ? null : ctx.client().id());
            } catch (RuntimeException e) {
                log.debug("review queue: {}", e.toString());
            }
        }
    }

    /** Where sampled served hits go for review. */
    @FunctionalInterface
    public interface ServedHitSink {
        void served(String asked, String matched, double cosine, Double probability, String level, long modelVersion,
                Long clientId);
    }

    private volatile ServedHitSink reviewSink;

    /** Sets where sampled served L2 hits go (the review queue); null = nowhere. */
    public void reviewSink(ServedHitSink sink) {
        this.reviewSink = sink;
    }

    /**
     * The space's mirror at {@code version}. Every write bumps the version, so under load a mirror is
     * renewed for nearly every lookup: it reads the space's ids and fetches only the entries it does not
     * hold yet (usually the one just written), keeping the decoded vectors and analysed questions of the
     * rest. Reading every entry again (up to max-entries × ~3 KB of JSON, parsed and analysed) per write
     * was what stalled the instances at a surge's peak.
     */
    private Mirror mirror(String space, String version) {
        Mirror mirror = mirrors.get(space);
        if (mirror != null && mirror.version().equals(version)) {
            return mirror;
        }
        var map = redisson.<String, String>getMap(space + ":e", StringCodec.INSTANCE);
        Set<String> ids = map.readAllKeySet();
        Map<String, L2Matcher.Candidate<CacheEntry>> held = mirror == null ? Map.of() : mirror.byId();
        Set<String> unknown = new HashSet<>();
        for (String id : ids) {
            if (!held.containsKey(id)) {
                unknown.add(id);
            }
        }
        Map<String, String> fetched = unknown.isEmpty() ? Map.of() : map.getAll(unknown);
        Map<String, L2Matcher.Candidate<CacheEntry>> byId = new HashMap<>(ids.size() * 2);
        for (String id : ids) {
            L2Matcher.Candidate<CacheEntry> candidate = held.get(id);
            if (candidate == null) {
                String text = fetched.get(id);
                if (text == null) {
                    continue; // dropped between the two reads
                }
                CacheEntry entry = json.readValue(text, CacheEntry.class);
                // each stored question's signals are read once per entry, not per lookup
                candidate = new L2Matcher.Candidate<>(entry.question(), entry.decodeVector(), entry,
                    verifier.pairs().analyzer().analyze(entry.question()), new PairFeatures.Labels(entry.intent(), null));
            }
            byId.put(id, candidate);
        }
        count("sluice.cache.mirror.refreshes");
        if (!fetched.isEmpty()) {
            meters.counter("sluice.cache.mirror.entries.fetched").increment(fetched.size());
        }
        Mirror fresh = new Mirror(version, List.copyOf(byId.values()), Map.copyOf(byId));
        if (mirrors.size() > 256) {
            mirrors.clear();
        }
        mirrors.put(space, fresh);
        return fresh;
    }

    private Optional<Hit> singleFlight(ChatContext ctx, String space, String hash) {
        String lockKey = space + ":f:" + hash;
        CompletableFuture<Optional<Hit>> mine = new CompletableFuture<>();
        LocalFlight candidate = new LocalFlight(lockKey, UUID.randomUUID().toString(), mine,
            System.nanoTime() + properties.flightLease().toNanos());
        LocalFlight existing = localFlights.compute(lockKey, (k, v) -> v != null && v.live() ? v : candidate);
        if (existing != candidate) {
            count("sluice.cache.flight", "role", "follower");
            return awaitLocal(existing);
        }
        boolean locked;
        try {
            locked = redisson.<String>getBucket(lockKey, StringCodec.INSTANCE)
                .setIfAbsent(candidate.token(), properties.flightLease());
        } catch (RuntimeException e) {
            locked = true; // Redis trouble: lead locally rather than stall
        }
        if (locked) {
            // a leader may have stored and unlocked between our L1 read and the lock: look once more
            Optional<Hit> landed = storedMeanwhile(ctx, space, hash);
            if (landed.isPresent()) {
                count("sluice.cache.flight", "role", "late_hit");
                release(candidate);
                end(candidate, landed);
                return landed;
            }
            count("sluice.cache.flight", "role", "leader");
            purgeLeaders();
            leading.put(ctx.requestId(), candidate);
            return Optional.empty();
        }
        // another instance leads: poll L1 until its entry appears, its lock goes, or we stop waiting
        count("sluice.cache.flight", "role", "remote_follower");
        Optional<Hit> result = Optional.empty();
        long until = System.nanoTime() + properties.flightWait().toNanos();
        try {
            while (System.nanoTime() - until < 0) {
                result = storedMeanwhile(ctx, space, hash);
                if (result.isPresent()) {
                    break;
                }
                if (!redisson.getBucket(lockKey, StringCodec.INSTANCE).isExists()) {
                    // the leader stores, then unlocks: it may have done both since the read above
                    result = storedMeanwhile(ctx, space, hash);
                    break;
                }
                Thread.sleep(POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            result = Optional.empty();
        }
        end(candidate, result);
        return result;
    }

    /** Hands a flight's result to the requests of this instance waiting on it, and forgets the flight. */
    private void end(LocalFlight flight, Optional<Hit> result) {
        flight.result().complete(result);
        localFlights.remove(flight.lockKey(), flight);
    }

    private Optional<Hit> storedMeanwhile(ChatContext ctx, String space, String hash) {
        try {
            long changesBefore = near.changes();
            List<Object> l1 = l1(space, hash);
            return toHit(space, hash, l1.get(0), similarity(l1), graceMs(ctx), shortForm(ctx), changesBefore);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private Optional<Hit> awaitLocal(LocalFlight flight) {
        try {
            return flight.result().get(properties.flightWait().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /**
     * Leaders whose request threw never offer: forget them once their lease is over. At most once a second: with
     * thousands of live leaders (one per open stream) a scan per new leader was quadratic.
     */
    private void purgeLeaders() {
        long now = System.nanoTime();
        long last = lastLeaderPurge.get();
        if (leading.size() > 1000 && now - last >= PURGE_LEADERS_EVERY_NANOS && lastLeaderPurge.compareAndSet(last, now)) {
            leading.values().removeIf(f -> !f.live());
        }
    }

    @Override
    public void offer(ChatContext ctx) {
        LocalFlight flight = leading.remove(ctx.requestId());
        Optional<Hit> stored = Optional.empty();
        try {
            if (cacheable(ctx)) {
                stored = Optional.of(store(ctx));
            }
        } catch (RuntimeException e) {
            count("sluice.cache.errors", "op", "store");
            log.warn("semantic cache: could not store an answer: {}", e.toString());
        } finally {
            if (flight != null) {
                release(flight);
                end(flight, stored);
            }
        }
    }

    /** Only fresh LLM answers (F4–F2) of eligible turns: F1/F0 and errors never enter the cache. */
    private boolean cacheable(ChatContext ctx) {
        Answer answer = ctx.answer();
        return answer != null && !ctx.cached() && answer.tier().ordinal() <= FidelityTier.F2.ordinal()
            && answer.text() != null && !answer.text().isBlank() && eligible(ctx);
    }

    private Hit store(ChatContext ctx) {
        put(space(ctx), ctx.message(), ctx.answer(), System.currentTimeMillis(), ctx.intent());
        return new Hit(ctx.answer(), 1.0);
    }

    /**
     * Warms a key space with an answer given earlier ({@code answeredAt}, epoch ms): served until
     * {@code answeredAt + ttl}, like an answer cached when it was given. Does nothing (false) when the
     * space already holds an entry for this question, or the answer is already past its time to live.
     */
    boolean warm(String space, String question, Answer answer, long answeredAt) {
        if (answeredAt + properties.ttl().toMillis() <= System.currentTimeMillis()) {
            return false;
        }
        Object existing = l1(space, QuestionText.hash(QuestionText.normalize(question))).get(0);
        if (existing instanceof String text && !text.isEmpty()) { // an entry, or '=' for one this instance holds
            return false;
        }
        put(space, question, answer, answeredAt, null);
        return true;
    }

    private void put(String space, String question, Answer answer, long createdAt, IntentResult intent) {
        String normalized = QuestionText.normalize(question);
        String hash = QuestionText.hash(normalized);
        float[] vector = embedder.embed(question);
        List<String> sourceIds = answer.sources().stream().map(RedisSemanticCache::sourceId).distinct().toList();
        long now = System.currentTimeMillis();
        String id = UUID.randomUUID().toString();
        CacheEntry entry = new CacheEntry(id, question, normalized, answer.text(), answer.tier().name(),
            answer.sources(), sourceIds, CacheEntry.encode(vector), createdAt, createdAt + properties.ttl().toMillis(),
            intentKey(intent), ShortForm.of(answer.text(), properties.shortFormChars()),
            intent == null ? null : intent.code(), intent == null ? null : intent.priority().name());
        List<Object> keys = List.of(space + ":x", space + ":e", space + ":o", space + ":v");
        // Redis keeps an entry past its logical expiry for as long as the most generous level serves it
        String ttl = Long.toString(physicalTtlMs());
        String old = redisson.getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_WRITE, STORE,
            RScript.ReturnType.VALUE, keys, hash, id, json.writeValueAsString(entry), Long.toString(now),
            Integer.toString(properties.maxEntries()), ttl, changeChannel, space);
        if (old != null) {
            changed(space, hash, old); // here at once; the other instances hear it on the channel
        }
        for (String sourceId : sourceIds) {
            redisson.getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_WRITE, INDEX, RScript.ReturnType.INTEGER,
                List.of(sourceKey(sourceId)), space + "|" + id + "|" + hash, ttl);
        }
        stores.increment();
    }

    /** Every key space in Redis (all clients, routes and versions), for maintenance. */
    List<String> spaces() {
        List<String> spaces = new ArrayList<>();
        redisson.getKeys().getKeysStreamByPattern(properties.keyPrefix() + "s:*:e", 500)
            .forEach(key -> spaces.add(key.substring(0, key.length() - 2)));
        return spaces;
    }

    /** The entries of a key space (expired ones included). */
    List<CacheEntry> entries(String space) {
        Map<String, String> all = redisson.<String, String>getMap(space + ":e", StringCodec.INSTANCE).readAllMap();
        List<CacheEntry> entries = new ArrayList<>(all.size());
        for (String text : all.values()) {
            entries.add(json.readValue(text, CacheEntry.class));
        }
        return entries;
    }

    /** Drops one entry from its key space on all instances (mirrors reload); false when it was gone already. */
    boolean drop(String space, CacheEntry entry) {
        Number n = redisson.getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_WRITE, DROP,
            RScript.ReturnType.INTEGER, List.of(space + ":x", space + ":e", space + ":o", space + ":v"),
            entry.id(), QuestionText.hash(entry.normalized()), changeChannel, space);
        if (n.longValue() > 0) {
            changed(space, QuestionText.hash(entry.normalized()), entry.id());
        }
        return n.longValue() > 0;
    }

    /** The id under which a source is indexed: {@code kind:id}, e.g. {@code faq:12}. */
    public static String sourceId(ChatResponse.Source source) {
        return source.kind() + ":" + source.id();
    }

    private String sourceKey(String sourceId) {
        return properties.keyPrefix() + "src:" + sourceId;
    }

    /**
     * Drops every cached answer that used this source (a changed or deleted document or FAQ entry),
     * on all instances. Ids as in {@link #sourceId}: {@code faq:<id>}, {@code doc:<id>}, …
     *
     * @return how many entries were dropped
     */
    public long invalidateSource(String sourceId) {
        // one source's entries live in many key spaces (many cluster slots): read the index, then drop each
        // entry with the key space's own script
        org.redisson.api.RSet<String> index = redisson.getSet(sourceKey(sourceId), StringCodec.INSTANCE);
        long n = 0;
        for (String member : index.readAll()) {
            int first = member.indexOf('|');
            int last = member.lastIndexOf('|');
            if (first <= 0 || last <= first) {
                continue;
            }
            String space = member.substring(0, first);
            Number dropped = redisson.getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_WRITE, DROP,
                RScript.ReturnType.INTEGER, List.of(space + ":x", space + ":e", space + ":o", space + ":v"),
                member.substring(first + 1, last), member.substring(last + 1), changeChannel, space);
            if (dropped.longValue() > 0) {
                changed(space, member.substring(last + 1), member.substring(first + 1, last));
            }
            n += dropped.longValue();
        }
        index.delete();
        invalidated.increment(n);
        if (n > 0) {
            log.info("semantic cache: {} entries depending on {} invalidated", n, sourceId);
        }
        return n;
    }

    /** Whether repeated exact hits can be served without a round trip now (the change channel is subscribed). */
    boolean nearHitsListening() {
        return near.listening();
    }

    /** A change this instance made: its own near hits follow at once, not when the channel's message comes back. */
    private void changed(String space, String hash, String goneId) {
        near.changed(space, hash, goneId);
    }

    private void release(LocalFlight flight) {
        try {
            redisson.getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_WRITE, RELEASE, RScript.ReturnType.INTEGER,
                List.of(flight.lockKey()), flight.token());
        } catch (RuntimeException e) {
            // the lease frees it
        }
    }

    private void count(String name, String... tags) {
        meters.counter(name, tags).increment();
    }

    Duration ttl() {
        return properties.ttl();
    }
}
