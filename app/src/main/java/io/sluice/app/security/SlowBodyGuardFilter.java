package io.sluice.app.security;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import io.sluice.api.ApiPaths;
import io.sluice.api.problem.ApiErrorResponses;
import io.sluice.problem.ProblemTypes;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A minimum data rate for request bodies (Tomcat has none for HTTP/1.1): every body is read through a
 * stream that, after a short grace, refuses a body arriving slower than {@code min-data-rate} or not
 * complete within {@code max-body-read-time}; the request is answered 408 and the connection closed, so
 * a client trickling a body (slowloris) holds a server thread for seconds, not minutes. Form bodies (the
 * login, console forms) are read ahead here, through that stream, because the container otherwise reads
 * them internally where no filter can watch. Independent of the thread model (platform or virtual).
 * Written here: Tomcat and Spring offer no such check; it is one wrapped stream.
 */
public class SlowBodyGuardFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(SlowBodyGuardFilter.class);

    private final ServerHardeningProperties limits;

    public SlowBodyGuardFilter(ServerHardeningProperties limits) {
        this.limits = limits;
    }

    /** Thrown by the watched stream when a body is too slow. */
    static final class SlowBodyException extends IOException {
        SlowBodyException(String message) {
            super(message);
        }
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() == 0 || !hasBody(request)) {
            chain.doFilter(request, response);
            return;
        }
        WatchedRequest watched = new WatchedRequest(request);
        try {
            if (form(request.getContentType())) {
                byte[] body = watched.readForm();
                if (body == null) {
                    io.sluice.web.http.UnreadBody.closeConnection(request);
                    response.setHeader(HttpHeaders.CONNECTION, "close");
                    response.sendError(413, "form body too large");
                    return;
                }
                chain.doFilter(new FormRequest(request, body), response);
            } else {
                chain.doFilter(watched, response);
            }
        } catch (IOException | ServletException | RuntimeException e) {
            if (!watched.tripped) {
                throw e;
            }
            timeout(request, response);
            return;
        }
        if (watched.tripped) {
            timeout(request, response); // the application swallowed the exception: still close the connection
        }
    }

    private void timeout(HttpServletRequest request, HttpServletResponse response) throws IOException {
        io.sluice.web.http.UnreadBody.closeConnection(request);
        response.setHeader(HttpHeaders.CONNECTION, "close");
        if (response.isCommitted()) {
            return;
        }
        response.resetBuffer();
        String path = request.getRequestURI();
        if (ApiPaths.api(path)) {
            ApiErrorResponses.write(request, response, 408, ProblemTypes.REQUEST_TIMEOUT, "Request timeout",
                "The request body arrived too slowly (below " + limits.minDataRate() + " bytes/s) or not within "
                    + limits.maxBodyReadTime().toSeconds() + " s.");
        } else {
            response.setStatus(408);
            response.setContentType("text/plain;charset=UTF-8");
            response.getWriter().write("Request timeout: the request body arrived too slowly.");
        }
    }

    private static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
    }

    private static boolean form(String contentType) {
        return contentType != null && contentType.toLowerCase(java.util.Locale.ROOT).startsWith("application/x-www-form-urlencoded");
    }

    /** The request with its body read through the rate check. */
    private final class WatchedRequest extends HttpServletRequestWrapper {
        private final long start = System.nanoTime();
        private long bytes;
        private volatile boolean tripped;
        private ServletInputStream stream;

        WatchedRequest(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                ServletInputStream in = super.getInputStream();
                stream = new ServletInputStream() {
                    @Override
                    public int read() throws IOException {
                        int b = in.read();
                        check(b < 0 ? 0 : 1);
                        return b;
                    }

                    @Override
                    public int read(byte[] buffer, int off, int len) throws IOException {
                        int n = in.read(buffer, off, len);
                        check(Math.max(0, n));
                        return n;
                    }

                    @Override
                    public boolean isFinished() {
                        return in.isFinished();
                    }

                    @Override
                    public boolean isReady() {
                        return in.isReady();
                    }

                    @Override
                    public void setReadListener(ReadListener listener) {
                        in.setReadListener(listener);
                    }
                };
            }
            return stream;
        }

        private void check(int read) throws SlowBodyException {
            bytes += read;
            long elapsed = System.nanoTime() - start;
            if (elapsed > limits.maxBodyReadTime().toNanos()) {
                trip("not complete within " + limits.maxBodyReadTime());
            }
            if (elapsed > limits.grace().toNanos() && bytes * 1e9 / elapsed < limits.minDataRate()) {
                trip("below " + limits.minDataRate() + " bytes/s");
            }
        }

        private void trip(String why) throws SlowBodyException {
            tripped = true;
            log.info("http: slow request body from {} cut ({})", getRemoteAddr(), why);
            throw new SlowBodyException("request body too slow: " + why);
        }

        /** Reads a form body ahead (bounded; null when over the limit): the container's own form parsing could not be watched. */
        byte[] readForm() throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            InputStream in = getInputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) > 0) {
                out.write(buffer, 0, n);
                if (out.size() > limits.maxFormBytes()) {
                    return null; // over the limit: refused (413) without reading the rest
                }
            }
            return out.toByteArray();
        }
    }

    /** A form request whose body was read ahead: parameters from the query string and the body. */
    private static final class FormRequest extends HttpServletRequestWrapper {
        private final byte[] body;
        private final Map<String, String[]> parameters;

        FormRequest(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
            Charset charset = request.getCharacterEncoding() == null ? StandardCharsets.UTF_8
                : Charset.forName(request.getCharacterEncoding());
            Map<String, java.util.List<String>> all = new LinkedHashMap<>();
            parse(request.getQueryString(), charset, all);
            parse(new String(body, StandardCharsets.ISO_8859_1), charset, all);
            Map<String, String[]> map = new LinkedHashMap<>();
            all.forEach((k, v) -> map.put(k, v.toArray(String[]::new)));
            this.parameters = Collections.unmodifiableMap(map);
        }

        private static void parse(String text, Charset charset, Map<String, java.util.List<String>> into) {
            if (text == null || text.isEmpty()) {
                return;
            }
            for (String pair : text.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                try {
                    String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), charset);
                    String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), charset);
                    into.computeIfAbsent(name, k -> new java.util.ArrayList<>()).add(value);
                } catch (IllegalArgumentException e) {
                    // a malformed escape: the pair is ignored, as the container does
                }
            }
        }

        @Override
        public String getParameter(String name) {
            String[] values = parameters.get(name);
            return values == null || values.length == 0 ? null : values[0];
        }

        @Override
        public Map<String, String[]> getParameterMap() {
            return parameters;
        }

        @Override
        public Enumeration<String> getParameterNames() {
            return Collections.enumeration(parameters.keySet());
        }

        @Override
        public String[] getParameterValues(String name) {
            return parameters.get(name);
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("synchronous reads only");
                }
            };
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
