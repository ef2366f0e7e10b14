package io.sluice.api.cache;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.chat.Answer;
import io.sluice.api.chat.ChatResponse;
import io.sluice.api.masking.PiiMasker;
import io.sluice.governance.tier.FidelityTier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;

/**
 * Maintenance of the {@link RedisSemanticCache} (run by batch-jobs' {@code semantic-cache-rebuild} job
 * through a small adapter in the app, as platform-api does not depend on batch-jobs):
 *
 * <ol>
 * <li><b>Drop</b>, in every key space, entries whose answer a customer marked {@code NOT_HELPFUL} (same
 * answer text, masked as stored) within {@code feedback-window}, and entries one of whose sources changed
 * after the entry was made: a FAQ entry updated ({@code faq_entry.updated_at}) or a document re-ingested
 * ({@code knowledge_document.ingested_at}) — or deleted.</li>
 * <li><b>Warm</b> the current space of each client (model route of level L0, current prompt and knowledge
 * versions) with its most frequent recent questions, reusing the newest stored F4 answer of each
 * question with its sources. No LLM call: the answer was already given and paid for, is still within the
 * cache TTL (it expires when a live entry made at the time would), none of its sources changed since,
 * and the question has no negative feedback. Questions that are not cacheable (multi-intent, personal
 * data, follow-up-like) are skipped, as is a question the space already holds.</li>
 * </ol>
 *
 * A failure stops the run where it is: what was dropped stays dropped (it was stale) and the cache keeps
 * serving everything else.
 */
public class CacheRebuild {

    private static final Logger log = LoggerFactory.getLogger(CacheRebuild.class);

    /** What the caller learns while the rebuild runs. */
    public interface Progress {
        void progress(long done, long total);

        boolean stopRequested();
    }

    /** What one run did. */
    public record Report(long scanned, long droppedForSource, long droppedForFeedback, long warmed, boolean stopped) {
    }

    private final RedisSemanticCache cache;
    private final JdbcClient jdbc;
    private final ObjectMapper json;
    private final PiiMasker masker;
    private final TurnEligibility eligibility;
    private final CacheRebuildProperties properties;
    private final java.util.function.Supplier<String> warmRoute;
    private final Counter warmed;
    private final Counter droppedForSource;
    private final Counter droppedForFeedback;

    public CacheRebuild(RedisSemanticCache cache, JdbcClient jdbc, ObjectMapper json, PiiMasker masker,
            TurnEligibility eligibility, CacheRebuildProperties properties, java.util.function.Supplier<String> warmRoute,
            MeterRegistry meters) {
        this.cache = cache;
        this.jdbc = jdbc;
        this.json = json;
        this.masker = masker;
        this.eligibility = eligibility;
        this.properties = properties;
        this.warmRoute = warmRoute;
        this.warmed = Counter.builder("sluice.cache.rebuild.warmed")
            .description("frequent questions put into the semantic cache by the rebuild").register(meters);
        this.droppedForSource = Counter.builder("sluice.cache.rebuild.dropped").tag("reason", "source_changed")
            .description("entries dropped by the rebuild").register(meters);
        this.droppedForFeedback = Counter.builder("sluice.cache.rebuild.dropped").tag("reason", "negative_feedback")
            .description("entries dropped by the rebuild").register(meters);
    }

    public Report rebuild(Progress progress) {
        List<String> spaces = cache.spaces();
        Map<String, List<CacheEntry>> entries = new LinkedHashMap<>();
        for (String space : spaces) {
            entries.put(space, cache.entries(space));
        }
        List<Asked> asked = recentQuestions();
        List<Candidate> candidates = candidates(asked);
        long total = entries.values().stream().mapToLong(List::size).sum() + candidates.size();
        long done = 0;
        progress.progress(done, total);

        Set<String> disliked = dislikedAnswers();
        SourceClock sources = sourceClock(entries.values().stream().flatMap(List::stream)
            .flatMap(e -> e.sources() == null ? java.util.stream.Stream.empty() : e.sources().stream()).toList(), candidates.stream().flatMap(c -> c.sources().stream()).toList());

        long scanned = 0;
        long forSource = 0;
        long forFeedback = 0;
        long warmedNow = 0;
        for (Map.Entry<String, List<CacheEntry>> space : entries.entrySet()) {
            for (CacheEntry entry : space.getValue()) {
                if (progress.stopRequested()) {
                    return finish(scanned, forSource, forFeedback, warmedNow, true);
                }
                scanned++;
                if (disliked.contains(masker.mask(entry.answer()))) {
                    if (cache.drop(space.getKey(), entry)) {
                        forFeedback++;
                        droppedForFeedback.increment();
                    }
                } else if (sources.changedSince(entry.sources(), entry.createdAt())) {
                    if (cache.drop(space.getKey(), entry)) {
                        forSource++;
                        droppedForSource.increment();
                    }
                }
                progress.progress(++done, total);
            }
        }
        String route = warmRoute.get();
        for (Candidate candidate : candidates) {
            if (progress.stopRequested()) {
                return finish(scanned, forSource, forFeedback, warmedNow, true);
            }
            if (!disliked.contains(candidate.answer()) && !sources.changedSince(candidate.sources(), candidate.answeredAt())
                    && cache.warm(cache.space(candidate.clientId(), route), candidate.question(),
                        new Answer(candidate.answer(), FidelityTier.F4, candidate.sources()), candidate.answeredAt())) {
                warmedNow++;
                warmed.increment();
            }
            progress.progress(++done, total);
        }
        return finish(scanned, forSource, forFeedback, warmedNow, false);
    }

    private Report finish(long scanned, long forSource, long forFeedback, long warmedNow, boolean stopped) {
        Report report = new Report(scanned, forSource, forFeedback, warmedNow, stopped);
        log.info("semantic-cache rebuild{}: {} entries checked, {} dropped (source changed), {} dropped (negative"
            + " feedback), {} questions warmed", stopped ? " (stopped)" : "", scanned, forSource, forFeedback, warmedNow);
        return report;
    }

    /** One stored question with the answer it got. */
    record Asked(long clientId, String question, String answer, String tier, boolean cached, String feedback,
            String sourcesJson, long answeredAt) {
    }

    /** A frequent question to warm, with the newest fresh F4 answer it got. */
    record Candidate(long clientId, String question, String answer, List<ChatResponse.Source> sources,
            long answeredAt, int occurrences) {
    }

    private List<Asked> recentQuestions() {
        return jdbc.sql("""
                SELECT c.client_id, u.content AS question, a.content AS answer, a.tier, a.cached, a.feedback,
                       a.sources::text AS sources, a.created_at
                FROM conversation_message u
                JOIN conversation c ON c.id = u.conversation_id
                JOIN conversation_message a ON a.request_id = u.request_id AND a.role = 'ASSISTANT'
                WHERE u.role = 'USER' AND c.client_id IS NOT NULL AND u.created_at > now() - (? * interval '1 second')
                ORDER BY u.id DESC
                LIMIT ?""")
            .params(properties.window().toSeconds(), properties.maxMessages())
            .query((rs, n) -> new Asked(rs.getLong("client_id"), rs.getString("question"), rs.getString("answer"),
                rs.getString("tier"), rs.getBoolean("cached"), rs.getString("feedback"), rs.getString("sources"),
                rs.getTimestamp("created_at").getTime()))
            .list();
    }

    /**
     * Groups questions per client by their normalized text, most frequent first; a group qualifies with
     * {@code min-occurrences}, no negative feedback, a cacheable wording and a stored F4 answer.
     */
    List<Candidate> candidates(List<Asked> asked) {
        Map<String, List<Asked>> groups = new HashMap<>();
        for (Asked a : asked) {
            groups.computeIfAbsent(a.clientId() + "|" + QuestionText.normalize(a.question()), k -> new ArrayList<>()).add(a);
        }
        List<Candidate> out = new ArrayList<>();
        for (List<Asked> group : groups.values()) {
            if (group.size() < properties.minOccurrences()
                    || group.stream().anyMatch(a -> "NOT_HELPFUL".equals(a.feedback()))) {
                continue;
            }
            group.stream()
                .filter(a -> FidelityTier.F4.name().equals(a.tier()) && a.answer() != null && !a.answer().isBlank())
                .max(Comparator.comparingLong(Asked::answeredAt))
                .filter(a -> cacheableWording(a.question()))
                .ifPresent(a -> out.add(new Candidate(a.clientId(), a.question(), a.answer(), sources(a.sourcesJson()),
                    a.answeredAt(), group.size())));
        }
        out.sort(Comparator.comparingInt(Candidate::occurrences).reversed().thenComparing(Candidate::question));
        return out.subList(0, Math.min(out.size(), properties.top()));
    }

    /**
     * Stored questions are masked: one with a mask in it had personal data and was never cacheable. The
     * conversation it came from is not known here, so the follow-up rule applies as if earlier turns existed.
     */
    private boolean cacheableWording(String question) {
        return !question.contains("****") && eligibility.refusal(question, List.of("earlier turn")) == null;
    }

    private List<ChatResponse.Source> sources(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        return json.readValue(text, new TypeReference<List<ChatResponse.Source>>() { });
    }

    private Set<String> dislikedAnswers() {
        return new HashSet<>(jdbc.sql("""
                SELECT DISTINCT content FROM conversation_message
                WHERE role = 'ASSISTANT' AND feedback = 'NOT_HELPFUL' AND created_at > now() - (? * interval '1 second')""")
            .param(properties.feedbackWindow().toSeconds())
            .query(String.class)
            .list());
    }

    /** When each source (FAQ entry, document) last changed; absent = deleted. */
    private SourceClock sourceClock(List<ChatResponse.Source> fromEntries, List<ChatResponse.Source> fromCandidates) {
        Set<String> faqIds = new HashSet<>();
        Set<String> documentIds = new HashSet<>();
        for (List<ChatResponse.Source> list : List.of(fromEntries, fromCandidates)) {
            for (ChatResponse.Source s : list) {
                if (SourceClock.FAQ.equals(s.kind())) {
                    faqIds.add(s.id());
                } else if (SourceClock.DOCUMENT.contains(s.kind())) {
                    documentIds.add(s.id());
                }
            }
        }
        Map<String, Instant> faq = new HashMap<>();
        if (!faqIds.isEmpty()) {
            String[] ids = faqIds.toArray(String[]::new);
            // a FAQ source names the entry by key, '#<id>' for rows without one, or (F1) by its numeric id
            jdbc.sql("""
                    SELECT external_id, '#' || id AS hash_id, id::text AS plain_id, updated_at FROM faq_entry
                    WHERE external_id = ANY(?) OR '#' || id = ANY(?) OR id::text = ANY(?)""")
                .params(ids, ids, ids)
                .query(rs -> {
                    Instant at = rs.getTimestamp("updated_at").toInstant();
                    for (String column : List.of("external_id", "hash_id", "plain_id")) {
                        String id = rs.getString(column);
                        if (id != null && faqIds.contains(id)) {
                            faq.put(id, at);
                        }
                    }
                });
        }
        Map<String, Instant> documents = new HashMap<>();
        if (!documentIds.isEmpty()) {
            jdbc.sql("SELECT external_id, ingested_at FROM knowledge_document WHERE external_id = ANY(?)")
                .param(documentIds.toArray(String[]::new))
                .query(rs -> {
                    documents.put(rs.getString("external_id"), rs.getTimestamp("ingested_at").toInstant());
                });
        }
        return new SourceClock(faq, documents);
    }

    /** Change times of sources, read once per run. */
    record SourceClock(Map<String, Instant> faq, Map<String, Instant> documents) {

        static final String FAQ = "faq";
        static final Set<String> DOCUMENT = Set.of("document", "doc");

        /** True when a FAQ entry or document the answer used changed after {@code sinceMillis}, or is gone. */
        boolean changedSince(List<ChatResponse.Source> sources, long sinceMillis) {
            for (ChatResponse.Source s : sources == null ? List.<ChatResponse.Source>of() : sources) {
                Instant changed;
                if (FAQ.equals(s.kind())) {
                    changed = faq.get(s.id());
                } else if (DOCUMENT.contains(s.kind())) {
                    changed = documents.get(s.id());
                } else {
                    continue;
                }
                if (changed == null || changed.toEpochMilli() > sinceMillis) {
                    return true;
                }
            }
            return false;
        }
    }
}
