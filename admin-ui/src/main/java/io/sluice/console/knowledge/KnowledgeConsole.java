package io.sluice.console.knowledge;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.sluice.console.audit.AuditLog;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.LevelKnobs;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqIndex;
import io.sluice.knowledge.faq.FaqMatch;
import io.sluice.knowledge.faq.FaqRepository;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.faq.FaqSnapshot;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.hittest.HitTestService;
import io.sluice.knowledge.ingest.DocumentRequest;
import io.sluice.knowledge.ingest.IngestResult;
import io.sluice.knowledge.ingest.IngestionService;
import io.sluice.knowledge.store.KnowledgeRepository;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Knowledge for operators, through the knowledge module's own services: documents (uploaded and
 * ingested in the background so progress can be watched), FAQ entries, snapshots and hit testing.
 * Snapshot history is read from {@code faq_snapshot} directly (no service lists it).
 */
@Service
public class KnowledgeConsole implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(KnowledgeConsole.class);

    private final IngestionService ingestion;
    private final KnowledgeRepository documents;
    private final FaqService faq;
    private final FaqRepository faqRepository;
    private final FaqSnapshotService snapshots;
    private final FaqIndex faqIndex;
    private final HitTestService hitTest;
    private final RetrievalPlan defaultPlan;
    private final DegradationControl degradation;
    private final ObjectProvider<LlmGateway> gateway;
    private final JdbcClient jdbc;
    private final AuditLog audit;
    // one upload at a time: ingestion embeds on the shared ONNX threads
    private final ExecutorService uploads = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "console-ingest");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Upload> recent = new ConcurrentHashMap<>();

    public KnowledgeConsole(IngestionService ingestion, KnowledgeRepository documents, FaqService faq,
            FaqRepository faqRepository, FaqSnapshotService snapshots, FaqIndex faqIndex, HitTestService hitTest,
            RetrievalPlan defaultRetrievalPlan, DegradationControl degradation, ObjectProvider<LlmGateway> gateway,
            JdbcClient jdbc, AuditLog audit) {
        this.ingestion = ingestion;
        this.documents = documents;
        this.faq = faq;
        this.faqRepository = faqRepository;
        this.snapshots = snapshots;
        this.faqIndex = faqIndex;
        this.hitTest = hitTest;
        this.defaultPlan = defaultRetrievalPlan;
        this.degradation = degradation;
        this.gateway = gateway;
        this.jdbc = jdbc;
        this.audit = audit;
    }

    /** An upload as the page shows it: stage, progress, result or error. */
    public record Upload(String externalId, String fileName, String actor, String stage, int done, int total,
            String outcome, String error, Instant startedAt) {
        public int percent() {
            if ("done".equals(stage)) {
                return 100;
            }
            return total <= 0 ? 0 : Math.min(99, done * 100 / total);
        }

        public boolean finished() {
            return "done".equals(stage) || "failed".equals(stage);
        }
    }

    public List<KnowledgeRepository.DocumentRow> documents() {
        return documents.list("", 1000).stream()
            .filter(d -> !d.externalId().startsWith(io.sluice.knowledge.chain.Source.FAQ_DOCUMENT_PREFIX))
            .toList();
    }

    public Collection<Upload> uploads() {
        Instant cutoff = Instant.now().minusSeconds(600);
        recent.values().removeIf(u -> u.finished() && u.startedAt().isBefore(cutoff));
        return recent.values().stream().sorted(Comparator.comparing(Upload::startedAt).reversed()).toList();
    }

    /**
     * Accepts an upload and ingests it in the background (progress in {@link #uploads()}).
     *
     * @throws IllegalArgumentException when there is nothing to ingest
     */
    public String upload(String actor, String fileName, String contentType, byte[] content, String externalId,
            String title, String category) {
        if (content == null || content.length == 0) {
            throw new IllegalArgumentException("choose a non-empty file to upload");
        }
        String name = fileName == null || fileName.isBlank() ? "upload" : fileName.strip();
        String id = externalId == null || externalId.isBlank()
            ? "upload:" + name.replaceAll("[^A-Za-z0-9._-]", "_") : externalId.strip();
        if (id.length() > 200 || id.startsWith(io.sluice.knowledge.chain.Source.FAQ_DOCUMENT_PREFIX)) {
            throw new IllegalArgumentException("document id must be 1-200 characters and not start with 'faq:'");
        }
        Upload queued = new Upload(id, name, actor, "queued", 0, 1, null, null, Instant.now());
        recent.put(id, queued);
        DocumentRequest request = new DocumentRequest(id, blankToNull(title), name, contentType, content, null,
            blankToNull(category), List.of(), null, null);
        uploads.submit(() -> {
            try {
                IngestResult result = ingestion.ingest(request, (job, stage, done, total) ->
                    recent.put(id, new Upload(id, name, actor, stage, done, total, null, null, queued.startedAt())));
                recent.put(id, new Upload(id, name, actor, "done", 1, 1,
                    result.outcome() + ": " + result.chunks() + " chunks, version " + result.version(), null,
                    queued.startedAt()));
                audit.record(actor, "document.ingest", id, null, result.outcome() + " v" + result.version() + ", "
                    + result.chunks() + " chunks from " + name + " (" + content.length + " bytes)");
            } catch (RuntimeException e) {
                log.info("console upload {} refused: {}", id, e.getMessage());
                recent.put(id, new Upload(id, name, actor, "failed", 0, 0, null, e.getMessage(), queued.startedAt()));
                audit.record(actor, "document.ingest.refused", id, null, e.getMessage());
            }
        });
        return id;
    }

    public boolean deleteDocument(String actor, String externalId) {
        var before = documents.find(externalId);
        boolean deleted = ingestion.delete(externalId);
        if (deleted) {
            audit.record(actor, "document.delete", externalId,
                before.map(d -> "v" + d.version() + ", " + d.chunkCount() + " chunks, " + d.title()).orElse("indexed"),
                null);
        }
        recent.remove(externalId);
        return deleted;
    }

    // --- FAQ

    public List<FaqEntry> faqEntries() {
        return faqRepository.findAll();
    }

    /** A page of FAQ entries and how many match in all. */
    public record FaqPage(List<FaqEntry> entries, int matching, int total, int page, int pages) {
    }

    /**
     * The entries whose key, question, phrasings, answer or category contain {@code text} (case-insensitive;
     * blank = all) and whose category is {@code category} (blank = any), {@code size} per page.
     */
    public FaqPage faqPage(String text, String category, int page, int size) {
        List<FaqEntry> all = faqRepository.findAll();
        String needle = text == null ? "" : text.strip().toLowerCase(java.util.Locale.ROOT);
        List<FaqEntry> matching = all.stream()
            .filter(e -> category == null || category.isBlank() || category.equals(e.category()))
            .filter(e -> needle.isEmpty() || contains(e, needle))
            .toList();
        int pages = Math.max(1, (matching.size() + size - 1) / size);
        int p = Math.min(Math.max(0, page), pages - 1);
        return new FaqPage(matching.subList(p * size, Math.min(matching.size(), (p + 1) * size)), matching.size(),
            all.size(), p, pages);
    }

    /** The categories in use, for the filter. */
    public List<String> faqCategories() {
        return faqRepository.findAll().stream().map(FaqEntry::category).filter(c -> c != null && !c.isBlank())
            .distinct().sorted().toList();
    }

    private static boolean contains(FaqEntry e, String needle) {
        return lower(e.key()).contains(needle) || lower(e.question()).contains(needle) || lower(e.answer()).contains(needle)
            || lower(e.category()).contains(needle)
            || e.phrasings().stream().anyMatch(phrasing -> lower(phrasing).contains(needle));
    }

    private static String lower(String s) {
        return s == null ? "" : s.toLowerCase(java.util.Locale.ROOT);
    }

    public java.util.Optional<FaqEntry> faqEntry(String key) {
        return faq.find(key);
    }

    /**
     * An annotation reply: an operator fixes an answer seen in a transcript and keeps it, in one step,
     * either as a new FAQ entry (the customer's question, the corrected answer) or as a variant of an
     * existing entry (the question becomes one of its phrasings; its answer is replaced only when asked).
     * Audited as {@code faq.annotate} with the conversation it came from, besides the entry's own change.
     *
     * @throws IllegalArgumentException with a message for people; nothing changes then
     */
    public FaqEntry annotate(String actor, String conversation, String question, String answer, String key,
            boolean asVariant, boolean replaceAnswer) {
        String q = question == null ? "" : question.strip();
        String a = answer == null ? "" : answer.strip();
        if (q.isEmpty()) {
            throw new IllegalArgumentException("the customer's question is empty");
        }
        FaqEntry saved;
        if (asVariant) {
            FaqEntry existing = faq.find(key == null ? "" : key.strip())
                .orElseThrow(() -> new IllegalArgumentException("no FAQ entry with that key"));
            List<String> phrasings = new java.util.ArrayList<>(existing.phrasings());
            if (!existing.question().equals(q) && !phrasings.contains(q)) {
                phrasings.add(q);
            }
            if (replaceAnswer && a.isEmpty()) {
                throw new IllegalArgumentException("the corrected answer is empty");
            }
            saved = saveFaq(actor, form(existing, existing.question(), phrasings, replaceAnswer ? a : existing.answer()));
        } else {
            if (a.isEmpty()) {
                throw new IllegalArgumentException("the corrected answer is empty");
            }
            Map<String, String> form = new java.util.HashMap<>();
            form.put("key", key == null ? "" : key.strip());
            form.put("question", q);
            form.put("answer", a);
            if (faq.find(form.get("key")).isPresent()) {
                throw new IllegalArgumentException("an FAQ entry with that key exists: choose \"variant of\" or another key");
            }
            saved = saveFaq(actor, form);
        }
        audit.record(actor, "faq.annotate", saved.key(), "conversation " + conversation,
            (asVariant ? "variant: " : "new entry: ") + abbreviate(q, 200));
        return saved;
    }

    private static Map<String, String> form(FaqEntry e, String question, List<String> phrasings, String answer) {
        Map<String, String> form = new java.util.HashMap<>();
        form.put("key", e.key());
        form.put("question", question);
        form.put("phrasings", String.join("\n", phrasings));
        form.put("answer", answer);
        form.put("category", e.category() == null ? "" : e.category());
        form.put("validFrom", e.validFrom() == null ? "" : e.validFrom().toString().substring(0, 10));
        form.put("validUntil", e.validUntil() == null ? "" : e.validUntil().toString().substring(0, 10));
        return form;
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "…";
    }

    /**
     * Creates or updates an entry (validated by the knowledge module; the snapshot is republished
     * when it is configured to publish on change).
     *
     * @throws IllegalArgumentException or IngestException with a message for people; nothing changes then
     */
    public FaqEntry saveFaq(String actor, Map<String, String> form) {
        String key = form.getOrDefault("key", "").strip();
        if (!key.matches("[A-Za-z0-9._:-]{1,190}")) {
            throw new IllegalArgumentException("key must be 1-190 letters, digits or . _ : -");
        }
        List<String> phrasings = Arrays.stream(form.getOrDefault("phrasings", "").split("\\R"))
            .map(String::strip).filter(s -> !s.isEmpty()).toList();
        Instant from = date(form.get("validFrom"), "valid from");
        Instant until = date(form.get("validUntil"), "valid until");
        java.util.Optional<FaqEntry> before = faq.find(key);
        FaqEntry entry = new FaqEntry(0, key, form.getOrDefault("question", "").strip(), phrasings,
            form.getOrDefault("answer", "").strip(), blankToNull(form.get("category")),
            before.map(FaqEntry::tags).orElse(List.of()), from, until, null);
        FaqEntry saved = faq.save(entry);
        audit.record(actor, before.isPresent() ? "faq.update" : "faq.create", key, before.map(KnowledgeConsole::describe)
            .orElse(null), describe(saved));
        return saved;
    }

    public boolean deleteFaq(String actor, String key) {
        java.util.Optional<FaqEntry> before = faq.find(key);
        boolean deleted = faq.delete(key);
        if (deleted) {
            audit.record(actor, "faq.delete", key, before.map(KnowledgeConsole::describe).orElse(null), null);
        }
        return deleted;
    }

    static String describe(FaqEntry e) {
        return "question=" + e.question() + "; phrasings=" + e.phrasings() + "; answer=" + e.answer()
            + "; category=" + e.category() + "; valid " + (e.validFrom() == null ? "always" : e.validFrom()) + " – "
            + (e.validUntil() == null ? "no end" : e.validUntil());
    }

    // --- snapshots

    public record SnapshotRow(long version, int entries, String status, String detail, OffsetDateTime createdAt,
            OffsetDateTime publishedAt, boolean onDisk) {
    }

    public FaqSnapshot currentSnapshot() {
        return snapshots.hasSnapshot() ? snapshots.current() : null;
    }

    public List<SnapshotRow> snapshotHistory() {
        List<Long> onDisk = snapshots.versionsOnDisk();
        List<SnapshotRow> rows = new ArrayList<>(jdbc.sql("""
                SELECT version, entry_count, status, detail, created_at, published_at
                FROM faq_snapshot ORDER BY version DESC LIMIT 50""")
            .query((rs, n) -> new SnapshotRow(rs.getLong("version"), rs.getInt("entry_count"), rs.getString("status"),
                rs.getString("detail"), rs.getObject("created_at", OffsetDateTime.class),
                rs.getObject("published_at", OffsetDateTime.class), onDisk.contains(rs.getLong("version"))))
            .list());
        // versions on this instance's disk that the database does not know (e.g. built before a restore)
        for (Long v : onDisk) {
            if (rows.stream().noneMatch(r -> r.version() == v)) {
                rows.add(new SnapshotRow(v, 0, "ON DISK", null, null, null, true));
            }
        }
        rows.sort(Comparator.comparingLong(SnapshotRow::version).reversed());
        return rows;
    }

    public FaqSnapshot publishFromDatabase(String actor) {
        long before = snapshots.hasSnapshot() ? snapshots.current().version() : 0;
        FaqSnapshot published = snapshots.rebuildFromDatabase();
        audit.record(actor, "faq.snapshot.publish", "faq snapshot", "v" + before, "v" + published.version()
            + " (" + published.size() + " entries)");
        return published;
    }

    public FaqSnapshot rollBack(String actor, long version) {
        long before = snapshots.hasSnapshot() ? snapshots.current().version() : 0;
        FaqSnapshot published = snapshots.publishVersion(version);
        audit.record(actor, "faq.snapshot.rollback", "faq snapshot", "v" + before, "v" + published.version());
        return published;
    }

    private static Instant date(String value, String name) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return LocalDate.parse(value.strip()).atStartOfDay().toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(name + " must be a date (yyyy-mm-dd), was '" + value + "'");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    @Override
    public void destroy() {
        uploads.shutdownNow();
    }
}
