package io.sluice.governance.sentinel;

import com.alibaba.csp.sentinel.AsyncEntry;
import com.alibaba.csp.sentinel.SphU;
import com.alibaba.csp.sentinel.Tracer;
import com.alibaba.csp.sentinel.slots.block.BlockException;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeException;

import io.sluice.governance.gateway.Lane;

/**
 * Enters a lane-and-model Sentinel resource around one provider attempt. Async entries, so a stream
 * may exit on another thread. A 429 exits as a success (a rate signal, not a failure).
 */
public final class SentinelGate {

    /** What entering decided. */
    public sealed interface Decision {
        /** Go ahead; end with exactly one of {@link #success()} or {@link #failure(String)}. */
        final class Pass implements Decision {
            private final AsyncEntry entry;
            private boolean exited;

            Pass(AsyncEntry entry) {
                this.entry = entry;
            }

            public synchronized void success() {
                if (!exited) {
                    exited = true;
                    entry.exit();
                }
            }

            public synchronized void failure(String why) {
                if (!exited) {
                    exited = true;
                    Tracer.traceEntry(new ProviderFailure(why), entry);
                    entry.exit();
                }
            }
        }

        /** The breaker (a degrade rule) is open for this resource: try the next model. */
        record BreakerOpen(String resource) implements Decision {
        }

        /** A local flow rule refused (threads, QPS): our own limiter, never retried. */
        record Refused(String resource, String rule) implements Decision {
        }
    }

    public Decision enter(Lane lane, String model) {
        String resource = SentinelRules.resource(lane, model);
        try {
            return new Decision.Pass(SphU.asyncEntry(resource));
        } catch (DegradeException e) {
            return new Decision.BreakerOpen(resource);
        } catch (BlockException e) {
            return new Decision.Refused(resource, e.getClass().getSimpleName()
                + (e.getRule() == null ? "" : " " + e.getRule().getClass().getSimpleName()));
        }
    }

    /** A failure as Sentinel's error statistics see it (no stack trace: it is a count, not a bug). */
    static final class ProviderFailure extends RuntimeException {
        ProviderFailure(String message) {
            super(message, null, false, false);
        }
    }
}
