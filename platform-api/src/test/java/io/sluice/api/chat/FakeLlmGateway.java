package io.sluice.api.chat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.gateway.LlmStream;
import io.sluice.governance.gateway.LlmStreamListener;

/** A test-only gateway: answers (or refuses) as told and remembers every request. */
class FakeLlmGateway implements LlmGateway {

    final List<LlmRequest> calls = new CopyOnWriteArrayList<>();
    volatile Function<LlmRequest, LlmOutcome> behaviour =
        request -> new LlmOutcome.Answered("polished: " + request.messages().get(request.messages().size() - 1).content(),
            "fake-light", 10, 5, 1, false);
    volatile boolean available = true;

    @Override
    public boolean available() {
        return available;
    }

    @Override
    public LlmOutcome call(LlmRequest request) {
        calls.add(request);
        return behaviour.apply(request);
    }

    @Override
    public LlmStream stream(LlmRequest request, LlmStreamListener listener) {
        calls.add(request);
        LlmOutcome outcome = behaviour.apply(request);
        if (outcome instanceof LlmOutcome.Answered answered) {
            for (String word : answered.text().split("(?<= )")) {
                listener.onToken(word);
            }
            listener.onComplete(answered);
        } else {
            listener.onEnd(outcome);
        }
        return new LlmStream() {
            @Override
            public void cancel() {
            }

            @Override
            public boolean finished() {
                return true;
            }
        };
    }
}
