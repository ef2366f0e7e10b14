package io.sluice.app.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A console session over plain HTTP (cookies + CSRF token), for checks a browser cannot make:
 * posting forms a page does not show, or without the CSRF token.
 */
public final class ConsoleSession {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    private final HttpClient client;
    private final String base;

    public ConsoleSession(int port) {
        this(port, null);
    }

    /** A session whose connections come from {@code from} (e.g. 127.0.0.2: another address on loopback). */
    public ConsoleSession(int port, java.net.InetAddress from) {
        this.base = "http://127.0.0.1:" + port;
        HttpClient.Builder builder = HttpClient.newBuilder().cookieHandler(new CookieManager())
            .followRedirects(HttpClient.Redirect.NEVER);
        if (from != null) {
            builder.localAddress(from);
        }
        this.client = builder.build();
    }

    /** Logs in and answers the login's response (302 to /console, or to /login?error). */
    public HttpResponse<String> tryLogIn(String username, String password) {
        String token = csrfTokenOf("/login");
        return postForm("/login", Map.of("username", username, "password", password, "_csrf", token));
    }

    public ConsoleSession logIn(String username, String password) {
        String token = csrfTokenOf("/login");
        HttpResponse<String> response = postForm("/login", Map.of("username", username, "password", password, "_csrf", token));
        String location = response.headers().firstValue("Location").orElse("");
        if (response.statusCode() != 302 || location.contains("error")) {
            throw new IllegalStateException("login as " + username + " failed: " + response.statusCode() + " " + location);
        }
        return this;
    }

    /** A CSRF token as a page's form carries it. */
    public String csrfTokenOf(String path) {
        Matcher matcher = CSRF.matcher(get(path).body());
        if (!matcher.find()) {
            throw new IllegalStateException("no CSRF token on " + path);
        }
        return matcher.group(1);
    }

    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET().build());
    }

    public HttpResponse<String> postForm(String path, Map<String, String> form) {
        String body = form.entrySet().stream()
            .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
