package io.sluice.governance.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.sluice.governance.gateway.LlmMessage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A provider that takes the request and never answers: the call fails as a timeout once its deadline passes, and
 * its socket is closed, so the hung provider keeps neither the caller nor a connection.
 */
class ProviderCallDeadlineTest {

    private LoopbackServer server;
    private final AtomicInteger requestsRead = new AtomicInteger();
    private final AtomicInteger closedByTheClient = new AtomicInteger();

    @BeforeEach
    void startAProviderThatNeverAnswers() throws IOException {
        server = new LoopbackServer(this::readUntilClosed);
    }

    @AfterEach
    void stopServer() throws IOException {
        server.close();
    }

    @Test
    void aCallPastItsDeadlineFailsAsATimeoutAndItsSocketIsClosed() {
        try (OpenAiCompatibleClient client = OpenAiCompatibleClient.of(server.baseUrl(), "test-key")) {
            ProviderClient.Call call = new ProviderClient.Call("m", List.of(LlmMessage.user("hello")), 16, null);

            ProviderResult result = client.call(call, Duration.ofMillis(300));

            assertThat(result).isInstanceOfSatisfying(ProviderResult.Failed.class, failed -> {
                assertThat(failed.kind()).isEqualTo(ProviderResult.Kind.TIMEOUT);
                assertThat(failed.detail()).isEqualTo("no answer within 300 ms");
            });
            assertThat(requestsRead).as("the request reached the provider").hasValue(1);
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(closedByTheClient).as("the hung call's socket was closed").hasValue(1));
        }
    }

    @Test
    void anEmbeddingPastItsDeadlineFailsAsATimeout() {
        try (OpenAiCompatibleClient client = OpenAiCompatibleClient.of(server.baseUrl(), "test-key")) {
            ProviderClient.EmbeddingResult result = client.embed("e", List.of("hello"), Duration.ofMillis(300));

            assertThat(result).isInstanceOfSatisfying(ProviderClient.EmbeddingResult.Failed.class, failed ->
                assertThat(failed.failure()).isInstanceOfSatisfying(ProviderResult.Failed.class, failure ->
                    assertThat(failure.kind()).isEqualTo(ProviderResult.Kind.TIMEOUT)));
        }
    }

    /** Reads the request and whatever follows, never writes; counts the client's close (end of stream). */
    private void readUntilClosed(Socket socket) {
        try (socket; InputStream in = socket.getInputStream()) {
            byte[] buffer = new byte[8192];
            boolean counted = false;
            int read;
            while ((read = in.read(buffer)) != -1) {
                if (!counted && read > 0) {
                    counted = true;
                    requestsRead.incrementAndGet();
                }
            }
            closedByTheClient.incrementAndGet();
        } catch (IOException e) {
            closedByTheClient.incrementAndGet(); // reset by the client: closed too
        }
    }
}
