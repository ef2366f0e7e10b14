package io.sluice.knowledge.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.lexical.LexicalAnalyzers;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.store.KnowledgeRepository;
import io.sluice.knowledge.store.KnowledgeRepository.ChunkRow;
import io.sluice.knowledge.support.SharedEmbedder;
import io.sluice.knowledge.support.TestDatabase;
import io.sluice.knowledge.vector.PgVectorSearcher;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Word document ingested through the real pipeline (PostgreSQL + pgvector, Lucene on disk, the ONNX
 * model), then one chunk corrected, disabled and enabled: every tier follows at once, and a rebuild or a
 * re-ingest of the same text keeps a disabled chunk out.
 */
class ChunkEditorTest {

    @TempDir
    Path dir;

    private final Embedder embedder = SharedEmbedder.get();
    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final String category = "chunks-" + run;
    private KnowledgeRepository repository;
    private LuceneIndex index;
    private IngestionService ingestion;
    private ChunkEditor editor;
    private PgVectorSearcher pgvector;

    @BeforeEach
    void setUp() {
        repository = new KnowledgeRepository(TestDatabase.get());
        index = new LuceneIndex(dir.resolve("idx"), LexicalAnalyzers.create("cjk"), embedder.dimension());
        ingestion = new IngestionService(repository, index, embedder, new Chunker(200, 40), 1 << 20);
        editor = new ChunkEditor(repository, index, embedder);
        pgvector = new PgVectorSearcher(TestDatabase.get(), 40);
    }

    @AfterEach
    void tearDown() throws Exception {
        index.close();
    }

    @Test
    void aDisabledChunkLeavesEveryTierAndComesBackWhenEnabled() throws Exception {
        String id = ingestManual();
        List<ChunkRow> chunks = editor.chunks(id);
        assertThat(chunks).extracting(ChunkRow::heading).containsExactly("售后服务手册", "售后服务手册 › 退货", "售后服务手册 › 换货");
        int returns = chunks.get(1).ordinal();
        String question = "签收后几天内可以无理由退货";
        assertThat(ordinalsFound(question, id)).as("indexed at first").containsOnly(returns);

        editor.disable(id, returns);
        assertThat(editor.chunks(id).get(1).disabled()).isTrue();
        assertThat(ordinalsFound(question, id)).as("no tier returns a disabled chunk").doesNotContain(returns);

        ingestion.rebuildIndexFromDatabase(IngestProgress.NONE);
        assertThat(ordinalsFound(question, id)).as("nor after the local index is rebuilt").doesNotContain(returns);

        editor.enable(id, returns);
        assertThat(editor.chunks(id).get(1).disabled()).isFalse();
        assertThat(ordinalsFound(question, id)).containsOnly(returns);
    }

    @Test
    void anEditedChunkIsFoundByItsNewTextInEveryTierAndSurvivesAnUnchangedReupload() throws Exception {
        String id = ingestManual();
        int exchanges = editor.chunks(id).get(2).ordinal();
        editor.edit(id, exchanges, "以旧换新：旧手机折价最高抵 800 元，门店当场评估。");

        ChunkRow edited = editor.chunks(id).get(2);
        assertThat(edited.content()).startsWith("以旧换新");
        assertThat(edited.editedAt()).isNotNull();
        assertThat(ordinalsFound("旧手机能折价多少钱", id)).containsOnly(exchanges);
        for (List<Passage> hits : tiers("换货期限多少天", 3)) {
            assertThat(hits).noneSatisfy(p -> assertThat(p.text()).contains("15 天"));
        }

        IngestResult again = ingestion.ingest(manual(id));
        assertThat(again.outcome()).isEqualTo(IngestResult.Outcome.UNCHANGED);
        assertThat(editor.chunks(id).get(2).content()).startsWith("以旧换新");
    }

    @Test
    void aDisabledChunkStaysDisabledWhenItsTextComesBackInANewVersion() throws Exception {
        String id = ingestManual();
        int returns = editor.chunks(id).get(1).ordinal();
        editor.disable(id, returns);

        DocumentRequest retitled = new DocumentRequest(id, "售后服务手册（新版）", id + ".docx", null,
            OfficeDocumentParserTest.docx(), null, category, List.of(), null, null);
        assertThat(ingestion.ingest(retitled).outcome()).isEqualTo(IngestResult.Outcome.UPDATED);
        assertThat(editor.chunks(id).get(1).disabled()).isTrue();
        assertThat(ordinalsFound("签收后几天内可以无理由退货", id)).doesNotContain(returns);
    }

    @Test
    void badEditsAreRefusedAndChangeNothing() throws Exception {
        String id = ingestManual();
        ChunkRow before = editor.chunks(id).get(1);
        assertThatThrownBy(() -> editor.edit(id, before.ordinal(), "  "))
            .isInstanceOfSatisfying(IngestException.class, e -> assertThat(e.problem()).isEqualTo(IngestException.Problem.EMPTY));
        assertThatThrownBy(() -> editor.edit(id, before.ordinal(), "a\u0000b"))
            .isInstanceOfSatisfying(IngestException.class, e -> assertThat(e.problem()).isEqualTo(IngestException.Problem.INVALID));
        assertThatThrownBy(() -> editor.disable(id, 999))
            .isInstanceOfSatisfying(IngestException.class, e -> assertThat(e.problem()).isEqualTo(IngestException.Problem.NOT_FOUND));
        assertThat(editor.chunks(id).get(1)).isEqualTo(before);
    }

    private String ingestManual() throws Exception {
        String id = "manual-" + run;
        assertThat(ingestion.ingest(manual(id)).outcome()).isEqualTo(IngestResult.Outcome.CREATED);
        return id;
    }

    private byte[] manualBytes;

    /** The same file each time (POI stamps a new creation time into every document it writes). */
    private DocumentRequest manual(String id) throws Exception {
        if (manualBytes == null) {
            manualBytes = OfficeDocumentParserTest.docx();
        }
        return DocumentRequest.of(id, "售后服务手册.docx", "application/octet-stream", manualBytes).withCategory(category);
    }

    /** Ordinals of this document's chunks among the top hits of pgvector, Lucene KNN and BM25. */
    private java.util.Set<Integer> ordinalsFound(String question, String id) {
        java.util.Set<Integer> found = new java.util.HashSet<>();
        List<ChunkRow> chunks = editor.chunks(id);
        for (List<Passage> hits : tiers(question, 1)) {
            for (Passage p : hits) {
                chunks.stream().filter(c -> p.source().documentId().equals(id) && c.content().equals(p.text()))
                    .forEach(c -> found.add(c.ordinal()));
            }
        }
        return found;
    }

    private List<List<Passage>> tiers(String question, int k) {
        SearchFilter filter = new SearchFilter(category, Instant.now());
        float[] q = embedder.embed(question);
        return List.of(pgvector.search(q, filter, k), index.searchKnn(q, filter, k), index.searchBm25(question, filter, k));
    }
}
