package io.sluice.governance.alerting;

import java.util.List;

/** Where alert notifications go (a webhook, Alertmanager). Implementations must not block for long. */
public interface AlertSink {

    /** A short name for metrics and logs. */
    String name();

    /**
     * Delivers firing and resolved alerts.
     *
     * @param alerts  what changed (or, for a re-send, every firing alert)
     * @param resend  true when nothing changed and the firing alerts are only re-sent to stay alive
     */
    void deliver(List<Alert> alerts, boolean resend) throws Exception;
}
