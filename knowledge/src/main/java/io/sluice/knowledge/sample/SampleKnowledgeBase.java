package io.sluice.knowledge.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.ingest.DocumentRequest;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** Reads the sample knowledge base shipped on the classpath under {@code sluice/sample/}. */
public final class SampleKnowledgeBase {

    public static final String DOCUMENT_PREFIX = "sample/";
    private static final String ROOT = "classpath*:sluice/sample/";

    /** One line of the evaluation set. */
    public record EvalQuestion(String question, String faqKey) {
    }

    record FaqJson(String key, String category, String question, List<String> phrasings, String answer,
            List<String> tags, String validFrom, String validUntil) {
    }

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final PathMatchingResourcePatternResolver RESOLVER = new PathMatchingResourcePatternResolver();

    private SampleKnowledgeBase() {
    }

    public static List<FaqEntry> faq() {
        List<FaqJson> raw = read("faq.json", new TypeReference<List<FaqJson>>() { });
        List<FaqEntry> out = new ArrayList<>(raw.size());
        for (FaqJson f : raw) {
            out.add(new FaqEntry(0, f.key(), f.question(), f.phrasings(), f.answer(), f.category(), f.tags(),
                f.validFrom() == null ? null : Instant.parse(f.validFrom()),
                f.validUntil() == null ? null : Instant.parse(f.validUntil()), null));
        }
        return out;
    }

    public static List<EvalQuestion> evalQuestions() {
        return read("eval-questions.json", new TypeReference<List<EvalQuestion>>() { });
    }

    public static List<DocumentRequest> documents() {
        try {
            Resource[] resources = RESOLVER.getResources(ROOT + "docs/*");
            List<Resource> sorted = new ArrayList<>(Arrays.asList(resources));
            sorted.sort(Comparator.comparing(Resource::getFilename));
            List<DocumentRequest> docs = new ArrayList<>();
            for (Resource r : sorted) {
                try (InputStream in = r.getInputStream()) {
                    String name = r.getFilename();
                    docs.add(new DocumentRequest(DOCUMENT_PREFIX + name, null, name, null, in.readAllBytes(),
                        null, "policy", List.of("sample"), null, null));
                }
            }
            return docs;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the sample documents", e);
        }
    }

    private static <T> T read(String name, TypeReference<T> type) {
        try {
            Resource[] found = RESOLVER.getResources(ROOT + name);
            if (found.length == 0) {
                throw new IllegalStateException("sample file " + name + " is not on the classpath");
            }
            try (InputStream in = found[0].getInputStream()) {
                return JSON.readValue(in, type);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read sample file " + name, e);
        }
    }
}
