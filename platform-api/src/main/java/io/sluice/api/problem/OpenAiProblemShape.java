package io.sluice.api.problem;

import io.sluice.api.ApiPaths;
import io.sluice.api.openai.OpenAiError;

import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * A problem the exception handlers raise for a {@code /v1/**} request (a store that cannot answer, an unexpected
 * failure, a Spring MVC error inside a front-door endpoint) goes out in OpenAI's shape, like every other front-door
 * error ({@link ApiErrorResponses}): OpenAI SDKs read {@code error.message}, and a problem+json body would leave
 * their users with none. Status and headers (Retry-After) stay as the handler set them.
 */
@RestControllerAdvice(basePackages = "io.sluice.api")
public class OpenAiProblemShape implements ResponseBodyAdvice<Object> {

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true; // decided per body: only a ProblemDetail on a front-door path changes
    }

    @Override
    public Object beforeBodyWrite(Object body, MethodParameter returnType, MediaType selectedContentType,
            Class<? extends HttpMessageConverter<?>> selectedConverterType, ServerHttpRequest request,
            ServerHttpResponse response) {
        if (!(body instanceof ProblemDetail problem) || !(request instanceof ServletServerHttpRequest servlet)
                || !ApiPaths.openAi(servlet.getServletRequest().getRequestURI())) {
            return body;
        }
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        return OpenAiError.body(ApiErrorResponses.openAiType(problem.getStatus()),
            problem.getType() != null ? ApiErrorResponses.openAiCode(problem.getType()) : null, null,
            problem.getDetail() != null ? problem.getDetail() : problem.getTitle());
    }
}
