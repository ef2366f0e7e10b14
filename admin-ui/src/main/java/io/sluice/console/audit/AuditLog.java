package io.sluice.console.audit;

import java.time.OffsetDateTime;
import java.util.List;

import io.sluice.web.audit.AuditTrail;

import org.springframework.stereotype.Service;

/**
 * Every change made through the console: who, when, what, before → after. Never holds secrets. Written
 * through the one {@link AuditTrail} the API uses too (source {@code console}); the audit page shows both.
 */
@Service
public class AuditLog {

    private final AuditTrail trail;

    public AuditLog(AuditTrail trail) {
        this.trail = trail;
    }

    public void record(String actor, String action, String target, String before, String after) {
        trail.console(actor, action, target, before, after);
    }

    public List<Entry> latest(int limit) {
        return trail.latest(limit).stream()
            .map(e -> new Entry(e.at(), e.actor(), e.action(), e.target(), e.before(), e.after(), e.source()))
            .toList();
    }

    /** @param source {@code console} or {@code api} */
    public record Entry(OffsetDateTime at, String actor, String action, String target, String before, String after,
            String source) {
    }
}
