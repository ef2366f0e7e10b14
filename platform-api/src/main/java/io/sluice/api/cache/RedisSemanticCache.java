package io.sluice.api.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.chat.Answer;
import io.sluice.api.chat.ChatContext;
import io.sluice.api.chat.ChatResponse;
import io.sluice.api.chat.SemanticCache;
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

    private static final String LOOKUP = """
        local id = redis.call('HGET', KEYS[1], ARGV[1])
        local entry = ''
        if id then entry = redis.call('HGET', KEYS[2], id) or '' end
        return {entry, redis.call('GET', KEYS[3]) or '0'}
        """;

    // KEYS: x, e, o, v (one key space, one hash tag); ARGV: hash, id, json, now, max, ttlMs
    private static final String STORE = """
        local old = redis.call('HGET', KEYS[1], ARGV[1])
        if old then redis.call('HDEL', KEYS[2], old); redis.call('ZREM', KEYS[3], old) end
        redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
        redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
        redis.call('ZADD', KEYS[3], ARGV[4], ARGV[2])
        local over = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[5])
        if over > 0 then
          for _, gone in ipairs(redis.call('ZPOPMIN', KEYS[3], over)) do redis.call('HDEL', KEYS[2], gone) end
        end
        redis.call('INCR', KEYS[4])
        for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
        return 1
        """;

    // KEYS: src; ARGV: member "space|id|hash", ttlMs. Separate from STORE: a source index lives in its own
    // Redis Cluster slot, a key space (tagged {hash}) in another
    private static final String INDEX = """
        redis.call('SADD', KEYS[1], ARGV[1])
        redis.call('PEXPIRE', KEYS[1], ARGV[2])
        return 1
        """;

    // KEYS: x, e, o, v; ARGV: id, hash
    private static final String DROP = """
        if redis.call('HDEL', KEYS[2], ARGV[1]) == 0 then return 0 end
        redis.call('ZREM', KEYS[3], ARGV[1])
        if redis.call('HGET', KEYS[1], ARGV[2]) == ARGV[1] then redis.call('HDEL', KEYS[1], ARGV[2]) end
        redis.call('INCR', KEYS[4])
        return 1
        """;

    private static final String RELEASE = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """;

    private static final long POLL_MS = 25;

    private final RedissonClient redisson;
    private final Embedder embedder;
    private final ObjectMapper json;
    private final CacheProperties properties;
    private final LongSupplier knowledgeVersion;
    private final TurnEligibility eligibility;
    private final HitVerifier verifier;
    private final L2Matcher matcher;
    private final Map<String, Mirror> mirrors = new ConcurrentHashMap<>();
    private final Map<String, LocalFlight> localFlights = new ConcurrentHashMap<>();
    private final Map<UUID, LocalFlight> leading = new ConcurrentHashMap<>();
    private final MeterRegistry meters;
    private final Counter stores;
    private final Counter invalidated;

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
        this.stores = Counter.builder("sluice.cache.stores").description("answers put into the semantic cache")
            .register(meters);
        this.invalidated = Counter.builder("sluice.cache.invalidated")
            .description("entries dropped because a source changed").register(meters);
    }

    private record Mirror(String version, List<L2Matcher.Candidate<CacheEntry>> candidates) {
    }

    private record LocalFlight(String lockKey, String token, CompletableFuture<Optional<Hit>> result, long deadlineNanos) {
        boolean live() {
            return System.nanoTime() - deadlineNanos < 0;
        }
    }

    /** The key space of a request: client × route × prompt version × knowledge version. */
    String space(ChatContext ctx) {
        return space(ctx.client().id(), ctx.knobs() == null ? "default" : ctx.knobs().modelRoute());
    }

    /** The key space of a client's questions on a model route, at the current prompt and knowledge versions. */
    String space(long clientId, String route) {
        // the hash is the space's hash tag: its keys (x, e, o, v, f:…) share one Redis Cluster slot
        return properties.keyPrefix() + "s:{" + QuestionText.hash(clientId + "|" + route + "|"
            + properties.promptVersion() + "|" + knowledgeVersion.getAsLong()) + "}";
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
        String space = space(ctx);
        String normalized = QuestionText.normalize(ctx.message());
        String hash = QuestionText.hash(normalized);
        List<Object> l1;
        try {
            l1 = l1(space, hash);
        } catch (RuntimeException e) {
            count("sluice.cache.errors", "op", "lookup");
            log.warn("semantic cache: Redis lookup failed, answering without the cache: {}", e.toString());
            return Optional.empty();
        }
        Optional<Hit> exact = toHit(l1.get(0), 1.0);
        count("sluice.cache.lookups", "layer", "l1", "result", exact.isPresent() ? "hit" : "miss");
        if (exact.isPresent()) {
            return exact;
        }
        Optional<Hit> semantic = l2(ctx, space, String.valueOf(l1.get(1)));
        if (semantic.isPresent()) {
            return semantic;
        }
        return singleFlight(ctx, space, hash);
    }

    private List<Object> l1(String space, String hash) {
        return redisson.getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_ONLY, LOOKUP, RScript.ReturnType.MULTI,
            List.of(space + ":x", space + ":e", space + ":v"), hash);
    }

    private Optional<Hit> toHit(Object raw, double similarity) {
        if (!(raw instanceof String text) || text.isEmpty()) {
            return Optional.empty();
        }
        CacheEntry entry = json.readValue(text, CacheEntry.class);
        if (entry.expiresAt() < System.currentTimeMillis()) {
            return Optional.empty();
        }
        return Optional.of(new Hit(answerOf(entry), similarity));
    }

    private static Answer answerOf(CacheEntry entry) {
        return new Answer(entry.answer(), FidelityTier.valueOf(entry.tier()), entry.sources());
    }

    private Optional<Hit> l2(ChatContext ctx, String space, String version) {
        float[] vector;
        try {
            vector = embedder.embed(ctx.message());
        } catch (RuntimeException e) {
            count("sluice.cache.errors", "op", "embed");
            return Optional.empty();
        }
        Mirror mirror = mirror(space, version);
        double threshold = ctx.knobs() == null ? 0.92 : ctx.knobs().cacheThreshold();
        String level = ctx.level() == null ? "L0" : ctx.level().name();
        long now = System.currentTimeMillis();
        List<L2Matcher.Candidate<CacheEntry>> live = mirror.candidates().stream()
            .filter(c -> c.value().expiresAt() >= now).toList();
        L2Matcher.Outcome<CacheEntry> outcome = matcher.match(ctx.message(), vector, level, threshold,
            new PairFeatures.Labels(intentKey(ctx), null), live);
        if (outcome.rejected() != null) {
            count("sluice.cache.rejections", "reason", outcome.rejected().name().toLowerCase(java.util.Locale.ROOT));
        }
        count("sluice.cache.lookups", "layer", "l2", "result", outcome.match().isPresent() ? "hit" : "miss");
        outcome.match().ifPresent(m -> review(ctx, m, level, outcome.modelVersion()));
        return outcome.match().map(m -> new Hit(answerOf(m.value()), Math.round(m.similarity() * 10000) / 10000.0));
    }

    /** The intent the request was classified with, as the pair model's agreement feature reads it. */
    private static String intentKey(ChatContext ctx) {
        return ctx.intent() == null ? null : String.valueOf(ctx.intent().intent());
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

    private Mirror mirror(String space, String version) {
        Mirror mirror = mirrors.get(space);
        if (mirror != null && mirror.version().equals(version)) {
            return mirror;
        }
        Map<String, String> all = redisson.<String, String>getMap(space + ":e", StringCodec.INSTANCE).readAllMap();
        List<L2Matcher.Candidate<CacheEntry>> candidates = new ArrayList<>(all.size());
        for (String text : all.values()) {
            CacheEntry entry = json.readValue(text, CacheEntry.class);
            // each stored question's signals are read once per mirror load, not per lookup
            candidates.add(new L2Matcher.Candidate<>(entry.question(), entry.decodeVector(), entry,
                verifier.pairs().analyzer().analyze(entry.question()), new PairFeatures.Labels(entry.intent(), null)));
        }
        Mirror fresh = new Mirror(version, List.copyOf(candidates));
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
                result = toHit(l1(space, hash).get(0), 1.0);
                if (result.isPresent()) {
                    break;
                }
                if (!redisson.getBucket(lockKey, StringCodec.INSTANCE).isExists()) {
                    // the leader stores, then unlocks: it may have done both since the read above
                    result = toHit(l1(space, hash).get(0), 1.0);
                    break;
                }
                Thread.sleep(POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            result = Optional.empty();
        }
        mine.complete(result);
        localFlights.remove(lockKey, candidate);
        return result;
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

    /** Leaders whose request threw never offer: forget them once their lease is over. */
    private void purgeLeaders() {
        if (leading.size() > 1000) {
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
                flight.result().complete(stored);
                localFlights.remove(flight.lockKey(), flight);
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
        put(space(ctx), ctx.message(), ctx.answer(), System.currentTimeMillis(), intentKey(ctx));
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
        if (existing instanceof String text && !text.isEmpty()) {
            return false;
        }
        put(space, question, answer, answeredAt, null);
        return true;
    }

    private void put(String space, String question, Answer answer, long createdAt, String intent) {
        String normalized = QuestionText.normalize(question);
        String hash = QuestionText.hash(normalized);
        float[] vector = embedder.embed(question);
        List<String> sourceIds = answer.sources().stream().map(RedisSemanticCache::sourceId).distinct().toList();
        long now = System.currentTimeMillis();
        String id = UUID.randomUUID().toString();
        CacheEntry entry = new CacheEntry(id, question, normalized, answer.text(), answer.tier().name(),
            answer.sources(), sourceIds, CacheEntry.encode(vector), createdAt, createdAt + properties.ttl().toMillis(),
            intent);
        List<Object> keys = List.of(space + ":x", space + ":e", space + ":o", space + ":v");
        String ttl = Long.toString(properties.ttl().toMillis());
        redisson.getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_WRITE, STORE, RScript.ReturnType.INTEGER, keys,
            hash, id, json.writeValueAsString(entry), Long.toString(now), Integer.toString(properties.maxEntries()), ttl);
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
            entry.id(), QuestionText.hash(entry.normalized()));
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
                member.substring(first + 1, last), member.substring(last + 1));
            n += dropped.longValue();
        }
        index.delete();
        invalidated.increment(n);
        if (n > 0) {
            log.info("semantic cache: {} entries depending on {} invalidated", n, sourceId);
        }
        return n;
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
