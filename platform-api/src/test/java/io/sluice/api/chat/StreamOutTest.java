package io.sluice.api.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** A chat stream's heartbeat goes only into silence: a stream whose events are flowing is not written to twice. */
class StreamOutTest {

    static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void aStreamSilentForJustUnderTheCheckPeriodGetsAHeartbeatAndOneWrittenToJustNowDoesNot() {
        long opened = System.nanoTime();
        ChatStreamController.StreamOut out = new ChatStreamController.StreamOut(new SseEmitter(), opened);

        assertThat(out.needsKeepAlive(opened + 500 * MS)).isFalse();
        assertThat(out.needsKeepAlive(opened + 899 * MS)).isFalse();
        assertThat(out.needsKeepAlive(opened + 900 * MS)).isTrue();
        assertThat(out.needsKeepAlive(opened + 5_000 * MS)).isTrue();
    }

    @Test
    void everyEventAndEveryHeartbeatCountsAsAWrite() throws Exception {
        long longAgo = System.nanoTime() - 10_000 * MS;
        ChatStreamController.StreamOut out = new ChatStreamController.StreamOut(new SseEmitter(), longAgo);
        assertThat(out.needsKeepAlive(System.nanoTime())).isTrue();

        out.send(SseEmitter.event().name("token").data("{\"text\":\"hi\"}"));
        long afterToken = System.nanoTime();
        assertThat(out.needsKeepAlive(afterToken)).isFalse();
        assertThat(out.needsKeepAlive(afterToken + 900 * MS)).isTrue();

        out.keepAlive();
        assertThat(out.needsKeepAlive(System.nanoTime())).isFalse();
    }
}
