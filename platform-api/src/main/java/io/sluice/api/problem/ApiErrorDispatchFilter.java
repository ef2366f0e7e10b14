package io.sluice.api.problem;

import java.io.IOException;
import java.net.URI;

import jakarta.servlet.FilterChain;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.sluice.api.ApiPaths;
import io.sluice.problem.ProblemTypes;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The error dispatch of an {@code /api/**} or {@code /v1/**} request (an unknown path, a method or
 * content type no endpoint takes, an unacceptable {@code Accept}, anything that reached the container's
 * error page) answers problem+json (OpenAI-shaped under {@code /v1}) with a stable type instead of
 * Spring's default JSON or an empty body. It writes the body itself, so content negotiation (the 406
 * case) cannot leave it empty. Console errors keep the default error page.
 */
public class ApiErrorDispatchFilter extends OncePerRequestFilter {

    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !(request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) instanceof String path)
            || !ApiPaths.api(path);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = (String) request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer i ? i : response.getStatus();
        response.resetBuffer();
        ApiErrorResponses.write(path, response, status, type(status), title(status), detail(status));
    }

    static URI type(int status) {
        return switch (status) {
            case 400 -> ProblemTypes.MALFORMED_REQUEST;
            case 401 -> ProblemTypes.UNAUTHORIZED;
            case 403 -> ProblemTypes.INSUFFICIENT_SCOPE;
            case 404 -> ProblemTypes.NOT_FOUND;
            case 408 -> ProblemTypes.REQUEST_TIMEOUT;
            case 413 -> ProblemTypes.PAYLOAD_TOO_LARGE;
            case 429 -> ProblemTypes.RATE_LIMITED;
            case 431 -> ProblemTypes.HEADERS_TOO_LARGE;
            case 503 -> ProblemTypes.SATURATED;
            default -> status >= 500 ? ProblemTypes.INTERNAL : ProblemTypes.UNSUPPORTED_REQUEST;
        };
    }

    static String title(int status) {
        return switch (status) {
            case 400 -> "Bad request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not found";
            case 405 -> "Method not allowed";
            case 406 -> "Not acceptable";
            case 408 -> "Request timeout";
            case 413 -> "Payload too large";
            case 415 -> "Unsupported media type";
            case 429 -> "Too many requests";
            case 431 -> "Request headers too large";
            case 503 -> "Service unavailable";
            default -> status >= 500 ? "Internal error" : "Request not supported";
        };
    }

    static String detail(int status) {
        return switch (status) {
            case 400 -> "The request could not be read.";
            case 404 -> "No such resource.";
            case 405 -> "This endpoint does not take this method; the Allow header lists the ones it takes.";
            case 406 -> "This endpoint answers only application/json (errors: application/problem+json); "
                + "accept one of them.";
            case 408 -> "The request was not received in time.";
            case 413 -> "The request body is too large.";
            case 415 -> "This endpoint does not take this content type; send application/json "
                + "(documents: multipart/form-data).";
            case 431 -> "The request line or headers are too large.";
            default -> status >= 500 ? "The request could not be completed." : "The request is not supported.";
        };
    }
}
