package io.sluice.knowledge.lexical;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import io.sluice.knowledge.chain.Freshness;
import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.chain.Source;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.Scripts;
import io.sluice.knowledge.store.StoredChunk;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntField;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * The local Lucene index of document chunks: BM25 over text (the lexical tier) and
 * {@link KnnFloatVectorField} HNSW over embeddings (the vector tier in the embedded default, and the
 * fallback when PostgreSQL is unreachable).
 *
 * <p>Searchers are near-real-time but refreshed only after a commit, so a reader sees a document's
 * old chunks or its new ones, never a mix and never none: {@link #upsertDocument} replaces a
 * document's chunks with one atomic {@code updateDocuments} call.
 */
public class LuceneIndex implements AutoCloseable {

    public static final String TIER_BM25 = "bm25";
    public static final String TIER_KNN = "vector:lucene-knn";
    /** Passages found by the English model (scored by its cosine, which has its own threshold). */
    public static final String TIER_KNN_ENGLISH = "vector:lucene-knn-en";

    private static final String F_DOC = "doc";
    private static final String F_TEXT = "text";
    private static final String F_VEC = "vec";
    /** Vectors of the English model, for Latin-script texts only (FAQ phrasings, English passages). */
    private static final String F_VEC_EN = "vec_en";
    private static final String F_CATEGORY = "category";
    private static final String F_VALID_FROM = "vf";
    private static final String F_VALID_UNTIL = "vu";
    private static final int MAX_QUERY_TERMS = 256;
    /** FAQ mirrors have one chunk per phrasing; fetch more and keep the best chunk per FAQ entry. */
    static final int OVERFETCH = Source.FAQ_COLLAPSE_OVERFETCH;

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LuceneIndex.class);

    private final Analyzer analyzer;
    private final Directory directory;
    /** Replaced (with {@link #searchers}) when the writer died: see {@link #reopenIfDead}. */
    private volatile IndexWriter writer;
    private volatile SearcherManager searchers;
    private volatile boolean closed;
    /** Commits readers can see so far: what was found before a change is stale after it. */
    private final AtomicLong generation = new AtomicLong();
    private final int dimension;
    private final Embedder english;

    public LuceneIndex(Path dir, Analyzer analyzer, int dimension) {
        this(dir, analyzer, dimension, null);
    }

    /**
     * @param english the English model for Latin-script texts and queries, or null for none; its
     *                vectors are computed here, on write, so callers only supply the main embedding
     */
    public LuceneIndex(Path dir, Analyzer analyzer, int dimension, Embedder english) {
        this.analyzer = analyzer;
        this.dimension = dimension;
        this.english = english;
        try {
            Files.createDirectories(dir);
            directory = FSDirectory.open(dir);
            String recorded = DirectoryReader.indexExists(directory)
                ? org.apache.lucene.index.SegmentInfos.readLatestCommit(directory).getUserData().get(ENGLISH_KEY) : null;
            writer = new IndexWriter(directory, writerConfig());
            // an empty index holds no English vectors of any model: it is the current model's from the start
            indexedEnglish = writer.getDocStats().numDocs == 0 ? englishId() : recorded;
            writer.commit();
            searchers = new SearcherManager(writer, null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the knowledge index at " + dir, e);
        }
        if (!englishModelCurrent()) {
            LOG.warn("the knowledge index holds English vectors of {} and the English model is {}: Latin-script queries"
                + " use the main model until the index is rebuilt", indexedEnglish == null ? "an unrecorded model" : indexedEnglish,
                englishId());
        }
    }

    /**
     * The English model whose vectors the index holds, recorded in every commit. The selectable English models
     * have the same dimension, so a vector's length cannot tell them apart: an index written with another model
     * (or none) is not searched with this one's query vectors ({@link #searchKnnEnglish} is empty and the tier
     * falls back to the main model) until {@link #replaceAll} has rewritten every document with the current one
     * — the knowledge bootstrap does that at start ({@link #englishModelCurrent}). Writes in between keep the
     * old record: the index then mixes two models and stays unsearched by the English field.
     */
    static final String ENGLISH_KEY = "sluice.english-model";
    private volatile String indexedEnglish;

    private String englishId() {
        return english == null ? "none" : english.modelId();
    }

    /** False when the index holds English vectors of another model than the configured one (rebuild it). */
    public boolean englishModelCurrent() {
        return english == null || englishId().equals(indexedEnglish);   // no model: no English vectors are read
    }

    /**
     * How the text was analysed, recorded in every commit: an index written with another analysis (before
     * the BM25 text went through the one normaliser) is rebuilt from the database at start
     * ({@link #analysisCurrent}), else its Traditional-Chinese tokens would never match a normalised query.
     */
    static final String ANALYSIS_KEY = "sluice.analysis";
    static final String ANALYSIS = "normalized-v1";

    /** False when the index on disk holds documents analysed otherwise than now (rebuild it). */
    public boolean analysisCurrent() {
        try {
            java.util.Map<String, String> data = org.apache.lucene.index.SegmentInfos.readLatestCommit(directory)
                .getUserData();
            return ANALYSIS.equals(data.get(ANALYSIS_KEY)) || size() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private IndexWriterConfig writerConfig() {
        return new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity());
    }

    /** Depth of {@link #inOneCommit} on this thread: its writes commit once, at the end. */
    private final ThreadLocal<int[]> deferring = ThreadLocal.withInitial(() -> new int[1]);

    /**
     * Runs {@code work} with every write of this thread committed once at the end instead of after each
     * write (a bulk FAQ import of thousands of entries: one commit and one searcher refresh, not one per
     * entry). Readers see the new content after that commit. The commit runs even when the work fails, so
     * the caller's clean-up (which writes with its own commits) starts from the index as the work left it.
     */
    public <T> T inOneCommit(java.util.function.Supplier<T> work) {
        int[] depth = deferring.get();
        depth[0]++;
        boolean done = false;
        try {
            T result = work.get();
            done = true;
            return result;
        } finally {
            if (--depth[0] == 0) {
                try {
                    synchronized (this) {
                        if (!closed && writer.isOpen()) {
                            commitAndRefresh();
                        }
                    }
                } catch (IOException e) {
                    if (done) {
                        throw new UncheckedIOException("knowledge index commit failed", e);
                    }
                }
            }
        }
    }

    /** One write against the current writer; run again once on a fresh writer if the writer had died. */
    @FunctionalInterface
    private interface Write {
        void run(IndexWriter writer) throws IOException;
    }

    /**
     * Runs a write. A writer that died (an {@code AlreadyClosedException}, for instance after a tragic
     * I/O error or a close during a concurrent write) is replaced by a fresh one on the same directory and
     * the write is tried once more, so the index recovers without a restart; its uncommitted changes are
     * gone with it, the committed index stays. A second failure is thrown (the caller rolls back).
     */
    private synchronized void write(Write work) throws IOException {
        if (closed) {
            throw new AlreadyClosedException("the knowledge index is closed");
        }
        reopenIfDead();
        if (deferring.get()[0] > 0) {
            // inside inOneCommit: no retry, a writer that dies now lost the batch's earlier writes (the caller rolls back)
            work.run(writer);
            return;
        }
        try {
            work.run(writer);
            commitAndRefresh();
        } catch (AlreadyClosedException e) {
            LOG.warn("knowledge index writer died ({}); reopening it and trying once more", e.toString());
            reopenIfDead();
            work.run(writer);
            commitAndRefresh();
        }
    }

    /** A new writer and searcher manager when the current writer is no longer open. */
    private void reopenIfDead() throws IOException {
        IndexWriter current = writer;
        if (current.isOpen() || closed) {
            return;
        }
        Throwable tragedy = current.getTragicException();
        try {
            searchers.close();
        } catch (IOException | RuntimeException e) {
            LOG.debug("closing the searchers of the dead writer: {}", e.toString());
        }
        writer = new IndexWriter(directory, writerConfig());
        searchers = new SearcherManager(writer, null);
        LOG.warn("knowledge index writer reopened after it died{}", tragedy == null ? "" : " (" + tragedy + ")");
    }

    /** Whether the index writer is open (false only between its death and the next write). */
    public boolean writerOpen() {
        return writer.isOpen();
    }

    /** Replaces every chunk of the document with these (atomically for readers), then commits. */
    public void upsertDocument(String documentId, List<StoredChunk> chunks) {
        try {
            List<Document> docs = toLucene(chunks);
            write(w -> w.updateDocuments(new Term(F_DOC, documentId), docs));
        } catch (IOException e) {
            throw new UncheckedIOException("knowledge index update failed", e);
        }
    }

    /** Replaces one chunk of a document (found by document id and ordinal), or adds it; then commits. */
    public void upsertChunk(StoredChunk chunk) {
        try {
            Document doc = toLucene(List.of(chunk)).get(0);
            write(w -> {
                w.deleteDocuments(chunkQuery(chunk.documentId(), chunk.ordinal()));
                w.addDocument(doc);
            });
        } catch (IOException e) {
            throw new UncheckedIOException("knowledge index update failed", e);
        }
    }

    /** Removes one chunk of a document (a disabled one), then commits. */
    public void deleteChunk(String documentId, int ordinal) {
        try {
            write(w -> w.deleteDocuments(chunkQuery(documentId, ordinal)));
        } catch (IOException e) {
            throw new UncheckedIOException("knowledge index delete failed", e);
        }
    }

    private static Query chunkQuery(String documentId, int ordinal) {
        return new BooleanQuery.Builder()
            .add(new TermQuery(new Term(F_DOC, documentId)), Occur.FILTER)
            .add(IntField.newExactQuery("ordinal", ordinal), Occur.FILTER)
            .build();
    }

    public void deleteDocument(String documentId) {
        try {
            write(w -> w.deleteDocuments(new Term(F_DOC, documentId)));
        } catch (IOException e) {
            throw new UncheckedIOException("knowledge index delete failed", e);
        }
    }

    /** Replaces the whole index content in one commit (readers switch from old to new at once). */
    public synchronized void replaceAll(Iterable<StoredChunk> chunks) {
        String before = indexedEnglish;
        try {
            List<List<Document>> batches = new ArrayList<>();
            List<StoredChunk> batch = new ArrayList<>();
            for (StoredChunk chunk : chunks) {
                batch.add(chunk);
                if (batch.size() == 256) {
                    batches.add(toLucene(batch));
                    batch.clear();
                }
            }
            batches.add(toLucene(batch));
            // every document is rewritten with the current English model: its id goes into this commit
            indexedEnglish = englishId();
            write(w -> {
                w.deleteAll();
                for (List<Document> docs : batches) {
                    w.addDocuments(docs);
                }
            });
        } catch (IOException | RuntimeException e) {
            indexedEnglish = before;
            if (e instanceof IOException io) {
                throw new UncheckedIOException("knowledge index rebuild failed", io);
            }
            throw (RuntimeException) e;
        }
    }

    private synchronized void commitAndRefresh() throws IOException {
        java.util.Map<String, String> data = new java.util.HashMap<>();
        data.put(ANALYSIS_KEY, ANALYSIS);
        if (indexedEnglish != null) {
            data.put(ENGLISH_KEY, indexedEnglish);
        }
        writer.setLiveCommitData(data.entrySet());
        writer.commit();
        searchers.maybeRefreshBlocking();
        generation.incrementAndGet();
    }

    /**
     * Goes up with every commit readers can see (a document ingested, edited or removed, a rebuild), so a
     * result remembered for a query is known to be stale once this has moved on.
     */
    public long generation() {
        return generation.get();
    }

    /** True when Latin-script queries can be matched with the English model. */
    public boolean hasEnglishModel() {
        return english != null;
    }

    private List<Document> toLucene(List<StoredChunk> chunks) {
        List<Document> docs = new ArrayList<>(chunks.size());
        List<float[]> en = englishVectors(chunks);
        for (int i = 0; i < chunks.size(); i++) {
            docs.add(toLucene(chunks.get(i), en.get(i)));
        }
        return docs;
    }

    /** The English model's vector per chunk (null for chunks that are not Latin-script), batched. */
    private List<float[]> englishVectors(List<StoredChunk> chunks) {
        List<float[]> out = new ArrayList<>(java.util.Collections.nCopies(chunks.size(), (float[]) null));
        if (english == null || chunks.isEmpty()) {
            return out;
        }
        List<Integer> at = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            String t = englishText(chunks.get(i));
            if (t != null) {
                at.add(i);
                texts.add(t);
            }
        }
        if (!texts.isEmpty()) {
            try {
                List<float[]> vectors = english.embedAll(texts);
                for (int j = 0; j < at.size(); j++) {
                    out.set(at.get(j), vectors.get(j));
                }
            } catch (RuntimeException e) {
                // this runs after the database commit: keep the chunks (BGE + BM25 still find them), lose only
                // the English vectors of this write
                LOG.warn("English model failed for {} chunks; indexed without English vectors: {}", texts.size(),
                    e.toString());
            }
        }
        return out;
    }

    /** FAQ mirror chunks are matched on their phrasing (the heading); other chunks on their text. */
    static String englishText(StoredChunk chunk) {
        String text = Source.faqKeyOf(chunk.documentId()) != null && chunk.heading() != null
            && !chunk.heading().isBlank() ? chunk.heading() : chunk.indexText();
        return Scripts.latin(text) ? text : null;
    }

    private Document toLucene(StoredChunk chunk, float[] englishVector) {
        Document doc = new Document();
        if (englishVector != null) {
            doc.add(new KnnFloatVectorField(F_VEC_EN, englishVector, VectorSimilarityFunction.COSINE));
        }
        doc.add(new StringField(F_DOC, chunk.documentId(), Field.Store.YES));
        doc.add(new TextField(F_TEXT, chunk.indexText(), Field.Store.NO));
        if (chunk.embedding() != null) {
            if (chunk.embedding().length != dimension) {
                throw new IllegalArgumentException("embedding has " + chunk.embedding().length
                    + " dimensions, index expects " + dimension);
            }
            doc.add(new KnnFloatVectorField(F_VEC, chunk.embedding(), VectorSimilarityFunction.COSINE));
        }
        if (chunk.category() != null) {
            doc.add(new StringField(F_CATEGORY, chunk.category(), Field.Store.YES));
        }
        long from = chunk.validFrom() == null ? Long.MIN_VALUE : chunk.validFrom().toEpochMilli();
        long until = chunk.validUntil() == null ? Long.MAX_VALUE : chunk.validUntil().toEpochMilli();
        doc.add(new LongPoint(F_VALID_FROM, from));
        doc.add(new LongPoint(F_VALID_UNTIL, until));
        doc.add(new StoredField("vuStored", until));
        doc.add(new StoredField("ingestedAt", chunk.ingestedAt() == null ? 0L : chunk.ingestedAt().toEpochMilli()));
        doc.add(new IntField("ordinal", chunk.ordinal(), Field.Store.YES));
        doc.add(new StoredField("title", nullToEmpty(chunk.title())));
        doc.add(new StoredField("heading", nullToEmpty(chunk.heading())));
        doc.add(new StoredField("content", chunk.content()));
        doc.add(new StoredField("url", nullToEmpty(chunk.url())));
        return doc;
    }

    /** BM25 over chunk text; terms of the query are OR-ed. */
    public List<Passage> searchBm25(String query, SearchFilter filter, int k) {
        Set<String> terms = analyze(query);
        if (terms.isEmpty()) {
            return List.of();
        }
        BooleanQuery.Builder text = new BooleanQuery.Builder();
        for (String term : terms) {
            text.add(new TermQuery(new Term(F_TEXT, term)), Occur.SHOULD);
        }
        BooleanQuery.Builder q = new BooleanQuery.Builder().add(text.build(), Occur.MUST);
        q.add(filterQuery(filter), Occur.FILTER);
        return search(q.build(), k, TIER_BM25, false);
    }

    /** Approximate nearest neighbours (HNSW, cosine), filtered by category and validity. */
    public List<Passage> searchKnn(float[] vector, SearchFilter filter, int k) {
        return search(new KnnFloatVectorQuery(F_VEC, vector, k * OVERFETCH, filterQuery(filter)), k, TIER_KNN, true);
    }

    /**
     * Nearest neighbours by the English model over Latin-script chunks; empty when there is no
     * English model or the index holds no English vectors yet (built before the model was added).
     */
    public List<Passage> searchKnnEnglish(String query, SearchFilter filter, int k) {
        if (english == null || !englishModelCurrent()) {
            return List.of();   // no model, or the index's English vectors are another model's: the main model answers
        }
        float[] vector = english.embed(query);
        return search(new KnnFloatVectorQuery(F_VEC_EN, vector, k * OVERFETCH, filterQuery(filter)), k,
            TIER_KNN_ENGLISH, true);
    }

    private Query filterQuery(SearchFilter filter) {
        long at = (filter.at() == null ? Instant.now() : filter.at()).toEpochMilli();
        BooleanQuery.Builder b = new BooleanQuery.Builder()
            .add(LongPoint.newRangeQuery(F_VALID_FROM, Long.MIN_VALUE, at), Occur.FILTER)
            .add(LongPoint.newRangeQuery(F_VALID_UNTIL, at + 1, Long.MAX_VALUE), Occur.FILTER);
        if (filter.category() != null) {
            b.add(new TermQuery(new Term(F_CATEGORY, filter.category())), Occur.FILTER);
        }
        return b.build();
    }

    private List<Passage> search(Query query, int k, String tier, boolean cosine) {
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                TopDocs top = searcher.search(query, k * OVERFETCH);
                StoredFields stored = searcher.storedFields();
                List<Passage> out = new ArrayList<>(k);
                Set<String> faqSeen = new java.util.HashSet<>();
                for (ScoreDoc sd : top.scoreDocs) {
                    if (out.size() == k) {
                        break;
                    }
                    Document d = stored.document(sd.doc);
                    String documentId = d.get(F_DOC);
                    if (Source.faqKeyOf(documentId) != null && !faqSeen.add(documentId)) {
                        continue;
                    }
                    long until = d.getField("vuStored").numericValue().longValue();
                    double score = cosine ? 2.0 * sd.score - 1.0 : sd.score;
                    Source source = new Source(documentId, d.get("title"), d.get("heading"), emptyToNull(d.get("url")),
                        Source.faqKeyOf(documentId));
                    Freshness freshness = new Freshness(Instant.ofEpochMilli(d.getField("ingestedAt").numericValue()
                        .longValue()), until == Long.MAX_VALUE ? null : Instant.ofEpochMilli(until));
                    out.add(new Passage(tier, score, d.get("content"), null, d.get(F_CATEGORY), source, freshness));
                }
                return out;
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("knowledge index search failed", e);
        }
    }

    private Set<String> analyze(String text) {
        Set<String> terms = new LinkedHashSet<>();
        try (TokenStream ts = analyzer.tokenStream(F_TEXT, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken() && terms.size() < MAX_QUERY_TERMS) {
                terms.add(term.toString());
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return terms;
    }

    /** Chunks currently visible to searchers. */
    public int size() {
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                return searcher.getIndexReader().numDocs();
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Chunks of one document visible to searchers. */
    public int count(String documentId) {
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                return searcher.count(new TermQuery(new Term(F_DOC, documentId)));
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Distinct document ids in the index (for consistency checks). */
    public Set<String> documentIds() {
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                Set<String> ids = new LinkedHashSet<>();
                StoredFields stored = searcher.storedFields();
                TopDocs all = searcher.search(new MatchAllDocsQuery(), Math.max(1, searcher.getIndexReader().numDocs()));
                for (ScoreDoc sd : all.scoreDocs) {
                    ids.add(stored.document(sd.doc).get(F_DOC));
                }
                return ids;
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean exists(Path dir) {
        try (Directory d = FSDirectory.open(dir)) {
            return DirectoryReader.indexExists(d);
        } catch (IOException e) {
            return false;
        }
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        searchers.close();
        writer.close();
        directory.close();
    }
}
