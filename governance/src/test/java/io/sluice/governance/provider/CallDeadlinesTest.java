package io.sluice.governance.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.sluice.governance.gateway.LlmMessage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A provider that takes the request and never answers: the call ends as a timeout at its deadline, and nothing stays watched. */
class CallDeadlinesTest {

    private final List<Socket> held = new CopyOnWriteArrayList<>();
    private final ServerSocket silent = silentServer();

    @AfterEach
    void close() throws IOException {
        silent.close();
        for (Socket socket : held) {
            socket.close();
        }
    }

    @Test
    @Timeout(10) // without the deadline the call would wait forever (no read timeout)
    void aCallWithoutAnAnswerIsCancelledAtItsDeadlineAsATimeout() {
        try (OpenAiCompatibleClient client = OpenAiCompatibleClient.of("http://127.0.0.1:" + silent.getLocalPort() + "/v1",
                "test-key")) {
            ProviderClient.Call call = new ProviderClient.Call("m", List.of(LlmMessage.user("hello")), 16, null);
            long started = System.nanoTime();

            ProviderResult result = client.call(call, Duration.ofMillis(300));

            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(result).isInstanceOf(ProviderResult.Failed.class);
            assertThat(((ProviderResult.Failed) result).kind()).isEqualTo(ProviderResult.Kind.TIMEOUT);
            assertThat(took).as("not before its deadline").isGreaterThanOrEqualTo(Duration.ofMillis(300));
        }
    }

    @Test
    void aWatchClosedInTimeCancelsNothingAndLeavesNothingWatched() {
        CallDeadlines deadlines = new CallDeadlines(Duration.ofMillis(10));
        try {
            okhttp3.Call call = new okhttp3.OkHttpClient().newCall(new okhttp3.Request.Builder().url("http://127.0.0.1:1/").build());
            try (CallDeadlines.Watch watch = deadlines.watch(call, Duration.ofSeconds(30))) {
                assertThat(deadlines.watched()).isEqualTo(1);
            }
            assertThat(deadlines.watched()).isZero();
            assertThat(call.isCanceled()).isFalse();
        } finally {
            deadlines.close();
        }
    }

    private ServerSocket silentServer() {
        try {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try {
                        held.add(server.accept()); // read nothing, answer nothing
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
