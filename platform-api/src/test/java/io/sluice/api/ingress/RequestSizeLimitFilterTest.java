package io.sluice.api.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** Operator files (a FAQ import of a few thousand entries, labelled evaluation files) get the upload limit. */
class RequestSizeLimitFilterTest {

    private final RequestSizeLimitFilter filter = new RequestSizeLimitFilter(64 * 1024, 8 * 1024 * 1024);

    private int post(String path, int bytes) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", path);
        request.setContent(new byte[bytes]);
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(request, response, chain);
        return chain.getRequest() == null ? response.getStatus() : 200;
    }

    @Test
    void aBulkFaqImportAndItsEvaluationFilesPassTheApiLimitUpToTheUploadLimit() throws Exception {
        int megabyte = 1024 * 1024;
        assertThat(post("/api/v1/knowledge/faq/import", megabyte)).isEqualTo(200);
        assertThat(post("/api/v1/semantics/evaluations/faq-queries", megabyte)).isEqualTo(200);
        assertThat(post("/api/v1/semantics/relevance/calibrations", megabyte)).isEqualTo(200);
        assertThat(post("/api/v1/knowledge/faq/import", 9 * megabyte)).isEqualTo(413);
        assertThat(post("/api/v1/chat", megabyte)).isEqualTo(413);
        assertThat(post("/api/v1/knowledge/faq", 100 * 1024)).isEqualTo(413);
    }
}
