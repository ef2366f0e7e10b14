package io.sluice.problem;

import java.io.IOException;
import java.net.URI;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;

/** Writes a problem+json body from a servlet filter, where the MVC exception handler does not reach. */
public final class ProblemResponses {

    private ProblemResponses() {
    }

    public static void write(HttpServletResponse response, int status, URI type, String title, String detail)
            throws IOException {
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write("{\"type\":\"" + type + "\",\"title\":\"" + escape(title) + "\",\"status\":" + status
            + ",\"detail\":\"" + escape(detail) + "\"}");
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
