package io.sluice.governance.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.sluice.governance.gateway.LlmMessage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A provider (or its load balancer) closes a kept-alive socket while the client takes it from its pool: the
 * call goes again on a fresh connection and is answered, instead of failing as a provider error (which would
 * count against the provider's breaker). The server here answers the first request of every connection and
 * closes the connection, without a word, when a second request arrives on it.
 */
class StaleConnectionTest {

    private LoopbackServer server;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger dropped = new AtomicInteger();

    @BeforeEach
    void startServer() throws IOException {
        server = new LoopbackServer(socket -> {
            connections.incrementAndGet();
            serve(socket);
        });
    }

    @AfterEach
    void stopServer() throws IOException {
        server.close();
    }

    @Test
    void aCallOnASocketTheProviderClosedIsSentAgainOnAFreshOne() {
        try (OpenAiCompatibleClient client = OpenAiCompatibleClient.of(server.baseUrl(), "test-key")) {
            ProviderClient.Call call = new ProviderClient.Call("m", List.of(LlmMessage.user("hello")), 16, null);

            ProviderResult first = client.call(call, Duration.ofSeconds(5));
            ProviderResult second = client.call(call, Duration.ofSeconds(5)); // pooled socket: the server drops it

            assertThat(first).isInstanceOf(ProviderResult.Answered.class);
            assertThat(second).isInstanceOf(ProviderResult.Answered.class);
            assertThat(((ProviderResult.Answered) second).text()).isEqualTo("pong");
            assertThat(dropped).as("the second call first went out on the kept-alive socket").hasValue(1);
            assertThat(connections).as("then on a new connection").hasValue(2);
            assertThat(requests).hasValue(3);
        }
    }

    /** Answers the connection's first request (keep-alive) and closes the socket when a second one comes. */
    private void serve(Socket socket) {
        try (socket) {
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            OutputStream out = socket.getOutputStream();
            for (int served = 0; ; served++) {
                int length = readHeaders(in);
                if (length < 0) {
                    return;
                }
                char[] body = new char[length];
                int read = 0;
                while (read < length) {
                    int n = in.read(body, read, length - read);
                    if (n < 0) {
                        return;
                    }
                    read += n;
                }
                requests.incrementAndGet();
                if (served > 0) {
                    dropped.incrementAndGet();
                    return; // closes the socket without an answer, as a provider whose keep-alive ran out
                }
                byte[] answer = """
                    {"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant",\
                    "content":"pong"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}"""
                    .getBytes(StandardCharsets.UTF_8);
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + answer.length
                    + "\r\nConnection: keep-alive\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(answer);
                out.flush();
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    /** Reads one request's headers; returns its Content-Length, or -1 at the end of the stream. */
    private static int readHeaders(BufferedReader in) throws IOException {
        String line = in.readLine();
        if (line == null) {
            return -1;
        }
        int length = 0;
        while ((line = in.readLine()) != null && !line.isEmpty()) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        return line == null ? -1 : length;
    }
}
