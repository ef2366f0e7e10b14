package io.sluice.app.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;

import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ApiScope;
import io.sluice.api.auth.ClientTier;

/** A tiny JSON-over-HTTP client for tests that call the running application over loopback. */
public final class Http {

    private final HttpClient client;
    private final String base;
    private final String apiKey;

    public Http(int port) {
        this(port, null);
    }

    /** Sends {@code Authorization: Bearer <apiKey>} with every request (null = no key). */
    public Http(int port, String apiKey) {
        this(port, apiKey, null);
    }

    /** With connections from {@code from} (another loopback address, e.g. 127.0.0.5: another client machine). */
    public Http(int port, String apiKey, java.net.InetAddress from) {
        this.base = "http://127.0.0.1:" + port;
        this.apiKey = apiKey;
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        if (from != null) {
            builder.localAddress(from);
        }
        this.client = builder.build();
    }

    /** A client of its own: issues an API key ({@code name}, {@code tier}) and sends it with every request. */
    public static Http newClient(int port, ApiKeys apiKeys, String name, ClientTier tier) {
        return new Http(port, apiKeys.create(name, tier).key());
    }

    /** As {@link #newClient(int, ApiKeys, String, ClientTier)}, with only these scopes. */
    public static Http newClient(int port, ApiKeys apiKeys, String name, ClientTier tier, Set<ApiScope> scopes) {
        return new Http(port, apiKeys.create(name, tier, scopes).key());
    }

    /** The API key this client sends (null = none). */
    public String apiKey() {
        return apiKey;
    }

    /** A POST of {@code body} that asks for server-sent events, for tests that read a stream as it comes. */
    public HttpRequest streamRequest(String path, String body) {
        return builder(path)
            .header("Content-Type", "application/json")
            .header("Accept", "text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    }

    public HttpResponse<String> postJson(String path, String body) {
        return send(builder(path)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build());
    }

    /** Sends the body chunked, without a Content-Length, the way streaming clients do. */
    public HttpResponse<String> postJsonChunked(String path, String body) {
        byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return send(builder(path)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(bytes)))
            .build());
    }

    public HttpResponse<String> get(String path) {
        return send(builder(path).GET().build());
    }

    /** Any request: method, path, extra headers (name, value, ...), body (null = none). */
    public HttpResponse<String> send(String method, String path, String body, String... headers) {
        HttpRequest.Builder builder = builder(path).method(method,
            body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i + 1 < headers.length; i += 2) {
            builder.header(headers[i], headers[i + 1]);
        }
        return send(builder.build());
    }

    private HttpRequest.Builder builder(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path));
        if (apiKey != null) {
            builder.header("Authorization", "Bearer " + apiKey);
        }
        return builder;
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
