package io.sluice.api.knowledge;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Instant;
import java.util.List;

import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.ingest.IngestException;
import io.sluice.knowledge.ingest.IngestResult;
import io.sluice.knowledge.ingest.IngestionService;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

class KnowledgeControllerTest {

    private IngestionService ingestion;
    private FaqService faq;
    private MockMvc mvc;

    @BeforeEach
    void setUp() {
        ingestion = mock(IngestionService.class);
        faq = mock(FaqService.class);
        mvc = MockMvcBuilders.standaloneSetup(new KnowledgeController(ingestion, faq)).build();
    }

    @Test
    void createdDocumentAnswers201WithTheResult() throws Exception {
        when(ingestion.ingest(any(), any())).thenReturn(new IngestResult("p1", IngestResult.Outcome.CREATED, 3, 1,
            Instant.parse("2026-11-30T00:00:00Z"), "ab"));
        mvc.perform(post("/api/v1/knowledge/documents").contentType(MediaType.APPLICATION_JSON)
                .content("{\"externalId\":\"p1\",\"content\":\"# 标题\\n正文。\"}"))
            .andExpect(status().isCreated())
            .andExpect(jsonPath("$.outcome").value("CREATED"))
            .andExpect(jsonPath("$.chunks").value(3));
    }

    @Test
    void refusedDocumentsAreProblemJsonNamingTheProblem() throws Exception {
        when(ingestion.ingest(any(), any())).thenThrow(new IngestException(IngestException.Problem.BINARY,
            "content looks binary (contains NUL bytes), not text"));
        mvc.perform(multipart("/api/v1/knowledge/documents")
                .file(new MockMultipartFile("file", "x.txt", "text/plain", new byte[] {0, 1, 2})))
            .andExpect(status().isBadRequest())
            .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
            .andExpect(jsonPath("$.type").value("https://sluice.dev/problems/invalid-request"))
            .andExpect(jsonPath("$.problem").value("BINARY"))
            .andExpect(jsonPath("$.detail").value("content looks binary (contains NUL bytes), not text"));

        doThrow(new IngestException(IngestException.Problem.UNSUPPORTED_TYPE,
            "unsupported document type 'application/msword'")).when(ingestion).ingest(any(), any());
        mvc.perform(multipart("/api/v1/knowledge/documents")
                .file(new MockMultipartFile("file", "x.doc", "application/msword", new byte[] {1})))
            .andExpect(status().isUnsupportedMediaType())
            .andExpect(jsonPath("$.type").value("https://sluice.dev/problems/unsupported-request"));

        doThrow(new IngestException(IngestException.Problem.TOO_LARGE, "too big")).when(ingestion).ingest(any(), any());
        mvc.perform(post("/api/v1/knowledge/documents").contentType(MediaType.APPLICATION_JSON)
                .content("{\"externalId\":\"p1\",\"content\":\"x\"}"))
            .andExpect(status().isPayloadTooLarge())
            .andExpect(jsonPath("$.problem").value("TOO_LARGE"));
    }

    @Test
    void faqWithoutAnswerIsRefusedAndUnknownDeletesAre404() throws Exception {
        when(faq.save(any())).thenThrow(new IngestException(IngestException.Problem.INVALID,
            "FAQ entry 'k1' has no answer"));
        mvc.perform(post("/api/v1/knowledge/faq").contentType(MediaType.APPLICATION_JSON)
                .content("{\"key\":\"k1\",\"question\":\"问？\",\"answer\":\"\"}"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.detail").value("FAQ entry 'k1' has no answer"));
        mvc.perform(delete("/api/v1/knowledge/faq/nope")).andExpect(status().isNotFound())
            .andExpect(jsonPath("$.type").value("https://sluice.dev/problems/not-found"));
    }

    @Test
    void savedFaqAnswers201() throws Exception {
        when(faq.save(any())).thenReturn(new FaqEntry(7, "k2", "问？", List.of("另一种问法"), "答。", "orders", List.of(),
            null, null, null));
        mvc.perform(post("/api/v1/knowledge/faq").contentType(MediaType.APPLICATION_JSON)
                .content("{\"key\":\"k2\",\"question\":\"问？\",\"phrasings\":[\"另一种问法\"],\"answer\":\"答。\"}"))
            .andExpect(status().isCreated())
            .andExpect(jsonPath("$.id").value(7));
    }
}
