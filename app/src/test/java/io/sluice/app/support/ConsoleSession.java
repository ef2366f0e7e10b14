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

    private final HttpClient client = HttpClient.newBuilder().cookieHandler(new CookieManager())
        .followRedirects(HttpClient.Redirect.NEVER).build();
    private final String base;

    public ConsoleSession(int port) {
        this.base = "http://127.0.0.1:" + port;
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
