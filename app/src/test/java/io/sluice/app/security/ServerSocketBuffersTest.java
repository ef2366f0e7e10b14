package io.sluice.app.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;

/** Where a connection's Tomcat buffers live: outside the heap unless an operator says otherwise. */
class ServerSocketBuffersTest {

    @Test
    void theConnectorsSocketBuffersAreDirectWhenConfiguredSo() {
        Connector connector = new Connector("HTTP/1.1");

        new ServerHardeningConfiguration().connectorCustomizer(properties(true)).customize(connector);

        assertThat(connector.getProperty("socket.directBuffer")).hasToString("true");
    }

    @Test
    void theConnectorKeepsHeapBuffersWhenTurnedOff() {
        Connector connector = new Connector("HTTP/1.1");

        new ServerHardeningConfiguration().connectorCustomizer(properties(false)).customize(connector);

        assertThat(connector.getProperty("socket.directBuffer")).hasToString("false");
    }

    private static ServerHardeningProperties properties(boolean directSocketBuffers) {
        return new ServerHardeningProperties(512, Duration.ofSeconds(2), Duration.ofSeconds(60), Duration.ofSeconds(10),
            1_048_576, directSocketBuffers);
    }
}
