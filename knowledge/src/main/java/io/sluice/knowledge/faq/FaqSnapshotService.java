package io.sluice.knowledge.faq;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.Scripts;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds, validates, publishes and loads FAQ snapshots. The published snapshot is held in memory
 * and on disk ({@code faq-v<version>.snap} plus a {@code CURRENT} pointer, both written atomically);
 * at start the newest intact file on disk is loaded, so the FAQ tier answers even when the database
 * is down. Publishing swaps the in-memory reference atomically: a query uses the old or the new
 * snapshot, never a mix.
 *
 * <p>API for the batch job that rebuilds snapshots: {@link #build} → {@link #validate} →
 * {@link #publish}; {@link #loadVersion} / {@link #publishVersion} to inspect or roll back.
 */
public class FaqSnapshotService {

    private static final Logger log = LoggerFactory.getLogger(FaqSnapshotService.class);
    private static final String CURRENT = "CURRENT";
    private static final int KEEP_FILES = 5;

    /** Outcome of {@link #validate}: problems empty means publishable. */
    public record Validation(boolean ok, List<String> problems, double selfHitRate) {
    }

    private final Path dir;
    private final Embedder embedder;
    /** The English model for Latin-script texts and questions, or null. */
    private final Embedder english;
    private final Supplier<FaqRepository> repository;
    private final double minSelfHitRate;
    private final AtomicReference<FaqSnapshot> current = new AtomicReference<>();
    private final java.util.concurrent.atomic.AtomicLong lastVersion = new java.util.concurrent.atomic.AtomicLong();

    /**
     * @param repository     gives the database view of the FAQ; may supply null (no database)
     * @param minSelfHitRate share of entries whose own question must match themselves first (e.g. 0.9)
     */
    public FaqSnapshotService(Path dir, Embedder embedder, Supplier<FaqRepository> repository, double minSelfHitRate) {
        this(dir, embedder, null, repository, minSelfHitRate);
    }

    /**
     * @param english the English model (as in the Lucene KNN tier): Latin-script texts get its vectors too and
     *                Latin-script questions are matched with it; null for none
     */
    public FaqSnapshotService(Path dir, Embedder embedder, Embedder english, Supplier<FaqRepository> repository,
            double minSelfHitRate) {
        this.dir = dir;
        this.embedder = embedder;
        this.english = english;
        this.repository = repository;
        this.minSelfHitRate = minSelfHitRate;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the FAQ snapshot directory " + dir, e);
        }
        loadFromDisk().ifPresent(s -> {
            current.set(s);
            log.info("FAQ snapshot v{} loaded from disk ({} entries)", s.version(), s.size());
        });
    }

    /** The published snapshot; empty (version 0) until one is published or loaded. */
    public FaqSnapshot current() {
        FaqSnapshot s = current.get();
        return s != null ? s : FaqSnapshotCodec.create(0, Instant.EPOCH, embedder.modelId(), embedder.dimension(),
            List.of(), List.of());
    }

    public boolean hasSnapshot() {
        return current.get() != null;
    }

    /**
     * False when the published snapshot's vectors come from other models than this service's: another main
     * model, English vectors of another English model (the selectable ones share a dimension, so only the
     * recorded id tells them apart), English vectors without an English model configured, or none although an
     * English model is configured and the snapshot has Latin-script texts. Such a snapshot still answers
     * safely ({@link #match} compares English vectors only with the same model's, else uses the main model) and
     * is rebuilt at start by the knowledge bootstrap.
     */
    public boolean modelsCurrent() {
        FaqSnapshot s = current.get();
        if (s == null || s.size() == 0) {
            return true;
        }
        if (!s.modelId().equals(embedder.modelId()) || s.dimension() != embedder.dimension()) {
            return false;
        }
        if (english == null) {
            return !s.hasEnglishVectors();
        }
        if (s.hasEnglishVectors()) {
            return english.modelId().equals(s.englishModelId());
        }
        for (int i = 0; i < s.textCount(); i++) {
            if (Scripts.latin(s.text(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The published snapshot's best matches for a question: Latin-script questions with the English model
     * when the snapshot has English vectors (falling back to the main model if it fails), others with
     * {@code vector}, the question's main-model embedding (null = keywords only).
     */
    public List<FaqMatch> match(FaqSnapshot s, String question, float[] vector, int k, String category, Instant at) {
        return s.match(question, vector, englishVector(s, question), k, category, at);
    }

    /** The question's English-model vector when the snapshot can use it, else null. */
    private float[] englishVector(FaqSnapshot s, String question) {
        if (english == null || !s.hasEnglishVectors() || !english.modelId().equals(s.englishModelId())
                || !Scripts.latin(question)) {
            return null;
        }
        try {
            return english.embed(question);
        } catch (RuntimeException e) {
            log.debug("English model failed for a FAQ query; matching with the main model", e);
            return null;
        }
    }

    /** Embeds every question and phrasing (reusing vectors of the current snapshot for unchanged text). */
    public FaqSnapshot build(List<FaqEntry> entries) {
        return build(entries, Map.of());
    }

    /** Same, with main-model vectors ({@code text → vector} of this service's embedder) already computed. */
    public FaqSnapshot build(List<FaqEntry> entries, Map<String, float[]> given) {
        FaqSnapshot previous = current.get();
        Map<String, float[]> known = new HashMap<>(given);
        if (previous != null && previous.modelId().equals(embedder.modelId())) {
            for (int i = 0; i < previous.textCount(); i++) {
                known.put(previous.text(i), previous.vectorUnsafe(i));
            }
        }
        List<String> missing = new ArrayList<>();
        for (FaqEntry e : entries) {
            for (String t : e.texts()) {
                if (!known.containsKey(t)) {
                    missing.add(t);
                }
            }
        }
        if (!missing.isEmpty()) {
            List<float[]> fresh = embedder.embedAll(missing);
            for (int i = 0; i < missing.size(); i++) {
                known.put(missing.get(i), fresh.get(i));
            }
        }
        List<float[]> vectors = new ArrayList<>();
        for (FaqEntry e : entries) {
            for (String t : e.texts()) {
                vectors.add(known.get(t));
            }
        }
        List<float[]> englishVectors = englishVectors(entries, previous);
        long version = lastVersion.updateAndGet(last -> Math.max(Math.max(System.currentTimeMillis(), last + 1),
            previous == null ? 1 : previous.version() + 1));
        return FaqSnapshotCodec.create(version, Instant.now(), embedder.modelId(), embedder.dimension(), entries,
            vectors, englishVectors == null ? null : english.modelId(), englishVectors == null ? 0
                : english.dimension(), englishVectors);
    }

    /**
     * The English model's vector per text (null for non-Latin texts), reusing the previous snapshot's; null
     * when there is no English model or it fails (the snapshot is then built without: BGE still answers).
     */
    private List<float[]> englishVectors(List<FaqEntry> entries, FaqSnapshot previous) {
        if (english == null) {
            return null;
        }
        Map<String, float[]> known = new HashMap<>();
        if (previous != null && english.modelId().equals(previous.englishModelId())) {
            for (int i = 0; i < previous.textCount(); i++) {
                if (previous.englishVectorUnsafe(i) != null) {
                    known.put(previous.text(i), previous.englishVectorUnsafe(i));
                }
            }
        }
        List<String> missing = entries.stream().flatMap(e -> e.texts().stream())
            .filter(t -> Scripts.latin(t) && !known.containsKey(t)).distinct().toList();
        try {
            if (!missing.isEmpty()) {
                List<float[]> fresh = english.embedAll(missing);
                for (int i = 0; i < missing.size(); i++) {
                    known.put(missing.get(i), fresh.get(i));
                }
            }
        } catch (RuntimeException e) {
            log.warn("English model failed for {} FAQ texts; snapshot built without English vectors: {}",
                missing.size(), e.toString());
            return null;
        }
        List<float[]> out = new ArrayList<>();
        for (FaqEntry e : entries) {
            for (String t : e.texts()) {
                out.add(Scripts.latin(t) ? known.get(t) : null);
            }
        }
        return out;
    }

    /** Entries checked for the self-hit rate at most (evenly spread). */
    static final int SELF_HIT_SAMPLE = 400;

    /** Checks a snapshot before it may answer customers. */
    public Validation validate(FaqSnapshot s) {
        List<String> problems = new ArrayList<>();
        if (s.size() == 0) {
            problems.add("snapshot has no entries");
        }
        if (!s.modelId().equals(embedder.modelId()) || s.dimension() != embedder.dimension()) {
            problems.add("snapshot vectors come from " + s.modelId() + "/" + s.dimension() + ", the embedder is "
                + embedder.modelId() + "/" + embedder.dimension());
        }
        for (FaqEntry e : s.entries()) {
            if (e.question() == null || e.question().isBlank()) {
                problems.add("entry " + e.key() + " has no question");
            }
            if (e.answer() == null || e.answer().isBlank()) {
                problems.add("entry " + e.key() + " has no answer");
            }
        }
        for (int i = 0; i < s.textCount(); i++) {
            if (!finite(s.vectorUnsafe(i)) || !finite(s.englishVectorUnsafe(i))) {
                problems.add("vector of '" + s.text(i) + "' is not finite");
            }
        }
        // every entry of a small FAQ; an even sample of a large one (each check scans every text: 2,000
        // entries × 6,000 texts took minutes on a loaded machine), enough to estimate the rate within ±0.05
        int step = Math.max(1, s.size() / SELF_HIT_SAMPLE);
        int hits = 0;
        int checked = 0;
        for (int e = 0, i = 0; e < s.size(); e++) {
            FaqEntry entry = s.entries().get(e);
            if (e % step == 0) {
                List<FaqMatch> top = s.match(entry.question(), s.vectorUnsafe(i), 1, null, null);
                checked++;
                if (!top.isEmpty() && top.get(0).entry().key().equals(entry.key())) {
                    hits++;
                }
            }
            i += entry.texts().size();
        }
        double rate = checked == 0 ? 0 : (double) hits / checked;
        if (s.size() > 0 && rate < minSelfHitRate) {
            problems.add(String.format("only %.0f%% of entries find themselves by their own question (need %.0f%%)",
                rate * 100, minSelfHitRate * 100));
        }
        return new Validation(problems.isEmpty(), List.copyOf(problems), rate);
    }

    private static boolean finite(float[] v) {
        if (v != null) {
            for (float f : v) {
                if (!Float.isFinite(f)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Validates, writes to disk, swaps it in and records it in the database (best effort: the
     * database may be down). A snapshot that fails validation is rejected and the current one stays.
     */
    public synchronized void publish(FaqSnapshot s) {
        Validation v = validate(s);
        if (!v.ok()) {
            record(s, "REJECTED", String.join("; ", v.problems()));
            throw new IllegalStateException("FAQ snapshot v" + s.version() + " rejected: " + String.join("; ",
                v.problems()));
        }
        write(s);
        current.set(s);
        record(s, "PUBLISHED", s.size() + " entries");
        prune();
        log.info("FAQ snapshot v{} published ({} entries, self-hit {}%)", s.version(), s.size(),
            Math.round(v.selfHitRate() * 100));
    }

    /** The snapshot's serialized form (SHA-256 trailer), e.g. to hand it to other instances. */
    public static byte[] encode(FaqSnapshot s) {
        return FaqSnapshotCodec.encode(s);
    }

    /**
     * Publishes a snapshot serialized by {@link #encode} (another instance built it): checksum verified,
     * validated again, written, swapped. The version already current is left as it is.
     */
    public synchronized FaqSnapshot install(byte[] bytes) {
        FaqSnapshot s = FaqSnapshotCodec.decode(bytes);
        FaqSnapshot now = current.get();
        if (now != null && now.version() == s.version() && now.checksum().equals(s.checksum())) {
            return now;
        }
        publish(s);
        return s;
    }

    /** Builds from the database's FAQ and publishes; returns the new snapshot. */
    public FaqSnapshot rebuildFromDatabase() {
        return rebuildFromDatabase(Map.of());
    }

    /** The main model snapshots are built with. */
    public String modelId() {
        return embedder.modelId();
    }

    /** Same, with main-model vectors already computed for some texts (a bulk import embeds once). */
    public FaqSnapshot rebuildFromDatabase(Map<String, float[]> known) {
        FaqRepository repo = repository.get();
        if (repo == null) {
            throw new IllegalStateException("no FAQ database configured");
        }
        FaqSnapshot s = build(repo.findAll(), known);
        publish(s);
        return s;
    }

    /** Loads a version from disk (checksum verified) without publishing it. */
    public Optional<FaqSnapshot> loadVersion(long version) {
        Path file = dir.resolve(fileName(version));
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(FaqSnapshotCodec.decode(Files.readAllBytes(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Makes a version on disk the published one again (roll back). */
    public synchronized FaqSnapshot publishVersion(long version) {
        FaqSnapshot s = loadVersion(version).orElseThrow(() ->
            new IllegalArgumentException("no FAQ snapshot v" + version + " on disk"));
        publish(s);
        return s;
    }

    /** Versions on disk, newest first. */
    public List<Long> versionsOnDisk() {
        List<Long> versions = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "faq-v*.snap")) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                versions.add(Long.parseLong(name.substring(5, name.length() - 5)));
            }
        } catch (IOException | NumberFormatException e) {
            log.warn("cannot list FAQ snapshots in {}: {}", dir, e.toString());
        }
        versions.sort(Comparator.reverseOrder());
        return versions;
    }

    private Optional<FaqSnapshot> loadFromDisk() {
        List<Long> candidates = new ArrayList<>();
        try {
            Path pointer = dir.resolve(CURRENT);
            if (Files.exists(pointer)) {
                candidates.add(Long.parseLong(Files.readString(pointer, StandardCharsets.UTF_8).trim()));
            }
        } catch (IOException | NumberFormatException e) {
            log.warn("FAQ snapshot pointer unreadable: {}", e.toString());
        }
        candidates.addAll(versionsOnDisk());
        for (Long version : candidates) {
            try {
                Optional<FaqSnapshot> s = loadVersion(version);
                if (s.isPresent()) {
                    return s;
                }
            } catch (RuntimeException e) {
                log.warn("FAQ snapshot v{} on disk is unusable ({}); trying an older one", version, e.getMessage());
            }
        }
        return Optional.empty();
    }

    private void write(FaqSnapshot s) {
        try {
            atomicWrite(dir.resolve(fileName(s.version())), FaqSnapshotCodec.encode(s));
            atomicWrite(dir.resolve(CURRENT), Long.toString(s.version()).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write FAQ snapshot v" + s.version(), e);
        }
    }

    private static void atomicWrite(Path target, byte[] bytes) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
        Files.write(tmp, bytes);
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private void prune() {
        List<Long> versions = versionsOnDisk();
        long keep = current().version();
        for (int i = KEEP_FILES; i < versions.size(); i++) {
            if (versions.get(i) != keep) {
                try {
                    Files.deleteIfExists(dir.resolve(fileName(versions.get(i))));
                } catch (IOException e) {
                    log.debug("cannot delete old snapshot", e);
                }
            }
        }
    }

    private void record(FaqSnapshot s, String status, String detail) {
        try {
            FaqRepository repo = repository.get();
            if (repo != null) {
                repo.recordSnapshot(s.version(), s.size(), s.checksum(), status, detail);
            }
        } catch (RuntimeException e) {
            log.warn("FAQ snapshot v{} {} but not recorded in the database: {}", s.version(), status,
                e.getClass().getSimpleName());
        }
    }

    static String fileName(long version) {
        return "faq-v" + version + ".snap";
    }
}
