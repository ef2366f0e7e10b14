package io.sluice.governance.provider;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.Consumer;

/**
 * A bare TCP server on loopback for the provider client's tests: each accepted socket is handed to {@code serve}
 * on a virtual thread of its own, so a test can play a provider that answers oddly or not at all.
 */
final class LoopbackServer implements AutoCloseable {

    private final ServerSocket server;

    LoopbackServer(Consumer<Socket> serve) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    Thread.ofVirtual().start(() -> serve.accept(socket));
                } catch (IOException e) {
                    return; // closed
                }
            }
        });
    }

    /** The provider's base URL, as a client is configured with it. */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
