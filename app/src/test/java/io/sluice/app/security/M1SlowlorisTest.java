package io.sluice.app.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * M1: 250 unauthenticated connections posting to /login at 1 byte every 5 s froze the whole server
 * (health timed out): nothing bounded how slowly a body may arrive. Now the probes live on their own
 * management port, a body below the minimum data rate is cut (408), and one address may have only a
 * few logins in flight (429 at once, body unread): health answers within 1 s all along, and every slow
 * connection is answered and closed within seconds.
 */
class M1SlowlorisTest extends SecuritySuite {

    private static final int CONNECTIONS = 250;

    @Test
    void twoHundredFiftySlowLoginBodiesNeitherFreezeHealthNorHoldTheServer() throws Exception {
        List<Socket> sockets = new ArrayList<>();
        AtomicInteger answered = new AtomicInteger();
        ScheduledExecutorService trickle = Executors.newScheduledThreadPool(2);
        HttpClient probe = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        try {
            for (int i = 0; i < CONNECTIONS; i++) {
                Socket socket = new Socket();
                socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
                socket.setSoTimeout(100);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    + "Content-Length: 10000\r\n\r\nu").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                sockets.add(socket);
            }
            // one more byte every 5 s on every connection that is still open (the probe's attack)
            trickle.scheduleWithFixedDelay(() -> {
                for (Socket socket : sockets) {
                    try {
                        socket.getOutputStream().write('x');
                    } catch (IOException closed) {
                        // the server cut it
                    }
                }
            }, 5, 5, TimeUnit.SECONDS);

            // health answers within 1 s, every time it is asked, while the attack goes on
            await().during(Duration.ofSeconds(12)).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                .until(() -> healthAnswersWithinOneSecond(probe));

            // and the server answered and closed every slow connection (429 at once, or 408 when too slow)
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
                for (Socket socket : sockets) {
                    if (!socket.isInputShutdown() && answeredAndClosed(socket)) {
                        answered.incrementAndGet();
                        socket.shutdownInput();
                    }
                }
                return answered.get() == CONNECTIONS;
            });
            // the public port still serves an authenticated API request
            assertThat(client("after-attack", "chat").http().postJson("/api/v1/chat", chat("u", "怎么查物流")).statusCode())
                .isEqualTo(200);
        } finally {
            trickle.shutdownNow();
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    private boolean healthAnswersWithinOneSecond(HttpClient probe) {
        try {
            HttpResponse<String> health = probe.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + managementPort + "/actuator/health")).timeout(Duration.ofSeconds(1)).build(),
                HttpResponse.BodyHandlers.ofString());
            return health.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether the server wrote its answer on this connection and closed it (read what is there, without blocking long). */
    private static boolean answeredAndClosed(Socket socket) {
        try {
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            while (true) {
                int n = in.read(buffer);
                if (n < 0) {
                    return true;
                }
            }
        } catch (java.net.SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }
}
