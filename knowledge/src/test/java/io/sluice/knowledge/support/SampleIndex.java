package io.sluice.knowledge.support;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.ingest.Chunker;
import io.sluice.knowledge.ingest.DocumentFormat;
import io.sluice.knowledge.ingest.DocumentParser;
import io.sluice.knowledge.ingest.DocumentRequest;
import io.sluice.knowledge.sample.SampleKnowledgeBase;
import io.sluice.knowledge.store.StoredChunk;

/** The sample knowledge base as chunks (documents + FAQ mirrors), embedded, without a database. */
public final class SampleIndex {

    private SampleIndex() {
    }

    public static List<StoredChunk> chunks(Embedder embedder) {
        List<DocumentRequest> docs = new ArrayList<>(SampleKnowledgeBase.documents());
        java.util.Map<String, List<Chunker.Chunk>> prepared = new java.util.HashMap<>();
        for (FaqEntry e : SampleKnowledgeBase.faq()) {
            DocumentRequest mirror = FaqService.mirror(e);
            docs.add(mirror);
            prepared.put(mirror.externalId(), FaqService.mirrorChunks(e));
        }
        DocumentParser parser = new DocumentParser();
        Chunker chunker = new Chunker(400, 80);
        List<StoredChunk> out = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        Instant now = Instant.now();
        for (DocumentRequest d : docs) {
            DocumentFormat f = DocumentFormat.detect(d.contentType(), d.fileName()).orElseThrow();
            var parsed = parser.parse(d.content(), f);
            String title = d.title() != null ? d.title() : parsed.title() != null ? parsed.title() : d.fileName();
            for (Chunker.Chunk c : prepared.getOrDefault(d.externalId(), chunker.chunk(parsed))) {
                out.add(new StoredChunk(d.externalId(), title, null, d.category(), now, d.validFrom(), d.validUntil(),
                    c.ordinal(), c.heading(), c.content(), null));
                texts.add(c.textToEmbed());
            }
        }
        List<float[]> vectors = embedder.embedAll(texts);
        List<StoredChunk> embedded = new ArrayList<>(out.size());
        for (int i = 0; i < out.size(); i++) {
            StoredChunk c = out.get(i);
            embedded.add(new StoredChunk(c.documentId(), c.title(), c.url(), c.category(), c.ingestedAt(),
                c.validFrom(), c.validUntil(), c.ordinal(), c.heading(), c.content(), vectors.get(i)));
        }
        return embedded;
    }
}
