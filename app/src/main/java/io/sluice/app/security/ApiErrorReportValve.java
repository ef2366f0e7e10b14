package io.sluice.app.security;

import java.io.IOException;
import java.net.URI;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

import io.sluice.api.ApiPaths;
import io.sluice.api.problem.ApiErrorResponses;
import io.sluice.problem.ProblemTypes;

/**
 * Tomcat's own error page for errors raised before any servlet runs (a request line or headers over
 * the size limit, a malformed request): problem+json under {@code /api/**}, OpenAI-shaped under
 * {@code /v1/**}, instead of Tomcat's HTML. Everything else keeps Tomcat's (report-less) page.
 */
public class ApiErrorReportValve extends ErrorReportValve {

    public ApiErrorReportValve() {
        setShowReport(false);
        setShowServerInfo(false);
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        String path = request.getRequestURI();
        if (status < 400 || !ApiPaths.api(path)) {
            super.report(request, response, throwable);
            return;
        }
        if (response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        boolean headers = status == 431 || (throwable != null && String.valueOf(throwable.getMessage()).toLowerCase()
            .contains("header"));
        URI type = headers ? ProblemTypes.HEADERS_TOO_LARGE : status >= 500 ? ProblemTypes.INTERNAL
            : ProblemTypes.MALFORMED_REQUEST;
        try {
            response.setSuspended(false);
            response.resetBuffer(true);
            ApiErrorResponses.write(path, response.getResponse(), status, type,
                headers ? "Request headers too large" : status >= 500 ? "Internal error" : "Bad request",
                headers ? "The request line or headers are too large." : "The request could not be read.");
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response cannot be written: nothing more to do
        }
    }
}
