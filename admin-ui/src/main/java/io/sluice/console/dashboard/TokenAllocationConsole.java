package io.sluice.console.dashboard;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.sluice.console.audit.AuditLog;
import io.sluice.governance.allocation.TokenAllocation;
import io.sluice.governance.gateway.RequestType;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * The dashboard's view of the token allocation by request type (each type's part of the window) and its
 * live settings: share and reserve change cluster-wide, validated and audited.
 */
@Service
public class TokenAllocationConsole {

    /** One type's line: tokens in the window, its part of the budget, whether the reserve is kept for it. */
    public record Row(String type, long tokens, int percent, boolean interactive, boolean dominant) {
    }

    /** What the dashboard shows; null when the allocation is off. */
    public record View(TokenAllocation.Snapshot window, List<Row> rows, int sharePercent, int reservePercent,
            boolean changed) {

        /** The types the reserve is kept for, in declaration order. */
        public String interactiveTypes() {
            return java.util.Arrays.stream(RequestType.values()).filter(window.interactive()::contains).map(RequestType::key)
                .collect(java.util.stream.Collectors.joining(", "));
        }
    }

    private final ObjectProvider<TokenAllocation> allocation;
    private final AuditLog audit;

    public TokenAllocationConsole(ObjectProvider<TokenAllocation> allocation, AuditLog audit) {
        this.allocation = allocation;
        this.audit = audit;
    }

    public View view() {
        TokenAllocation a = allocation.getIfAvailable();
        if (a == null) {
            return null;
        }
        TokenAllocation.Snapshot window;
        try {
            window = a.snapshot();
        } catch (RuntimeException e) {
            return null;
        }
        List<Row> rows = new ArrayList<>();
        for (RequestType type : RequestType.values()) {
            rows.add(new Row(type.key(), window.byType().getOrDefault(type, 0L), (int) Math.round(window.share(type) * 100),
                window.interactive().contains(type), type == window.dominant()));
        }
        return new View(window, rows, (int) Math.round(window.settings().share() * 100),
            (int) Math.round(window.settings().reserve() * 100), !a.settings().equals(a.configuredSettings()));
    }

    /**
     * Sets share and reserve (in percent) on every instance.
     *
     * @return false when Redis was unreachable and only this instance changed
     * @throws IllegalArgumentException with a message for people; nothing changes then
     */
    public boolean update(String actor, Map<String, String> form) {
        TokenAllocation a = required();
        TokenAllocation.Settings next = new TokenAllocation.Settings(percent(form.get("share"), "share") / 100.0,
            percent(form.get("reserve"), "reserve") / 100.0);
        TokenAllocation.Settings before = a.settings();
        boolean everywhere = a.replace(next);
        audit.record(actor, "gateway.allocation", everywhere ? "token allocation by request type"
            : "token allocation by request type (this instance only: Redis unreachable)", before.toString(), next.toString());
        return everywhere;
    }

    public void reset(String actor) {
        TokenAllocation a = required();
        TokenAllocation.Settings before = a.settings();
        a.resetToConfigured();
        audit.record(actor, "gateway.allocation.reset", "token allocation by request type", before.toString(),
            a.settings().toString());
    }

    private TokenAllocation required() {
        TokenAllocation a = allocation.getIfAvailable();
        if (a == null) {
            throw new IllegalArgumentException("token allocation is off (sluice.gateway.allocation.enabled)");
        }
        return a;
    }

    private static double percent(String raw, String name) {
        if (raw == null || raw.isBlank()) {
            throw new IllegalArgumentException("the " + name + " is required (a percentage)");
        }
        try {
            return Double.parseDouble(raw.strip().replace("%", "").strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the " + name + " must be a number of percent, was '" + raw + "'");
        }
    }
}
