package io.sluice.web.http;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;

/**
 * A request refused without reading its body: by default the container would then read ("swallow") the
 * rest of the body to keep the connection, which a client trickling its body turns into a held thread.
 * Marking the request makes the application's Tomcat valve close the connection after the answer instead.
 */
public final class UnreadBody {

    /** Request attribute: close the connection after the answer, without reading the rest of the body. */
    public static final String CLOSE_ATTRIBUTE = "io.sluice.web.http.UnreadBody.close";

    private UnreadBody() {
    }

    /** Close after the answer, whatever is left of the body. */
    public static void closeConnection(HttpServletRequest request) {
        request.setAttribute(CLOSE_ATTRIBUTE, Boolean.TRUE);
    }

    /**
     * Close after the answer if the body has not fully arrived yet (a client sending at normal speed has
     * its small body read in full, keeps its connection and surely sees the answer).
     */
    public static void closeIfPending(HttpServletRequest request) {
        long length = request.getContentLengthLong();
        boolean chunked = request.getHeader("Transfer-Encoding") != null;
        if (length <= 0 && !chunked) {
            return;
        }
        try {
            if (chunked || request.getInputStream().available() < length) {
                closeConnection(request);
            }
        } catch (IOException | IllegalStateException e) {
            closeConnection(request);
        }
    }
}
