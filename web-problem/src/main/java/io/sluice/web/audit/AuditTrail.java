package io.sluice.web.audit;

import java.time.OffsetDateTime;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The one writer of {@code audit_log}: every change made through the console (actor = the operator)
 * or through the API (actor = the client, written once per successful state-changing request by
 * platform-api's audit interceptor). Never holds secrets; long values are cut.
 *
 * <p>A controller that knows more than "this request succeeded" (what was there before, what is now)
 * leaves it with {@link #note}; the API interceptor writes the note with the request's actor.
 */
public class AuditTrail {

    /** Where a change came from. */
    public enum Source { CONSOLE, API }

    /** Request attribute holding a controller's {@link Note} for the API interceptor. */
    public static final String NOTE_ATTRIBUTE = "io.sluice.web.audit.AuditTrail.note";
    static final int MAX_VALUE_CHARS = 2000;

    private final JdbcClient jdbc;

    public AuditTrail(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** What a controller says about the change it made (the interceptor adds who and when). */
    public record Note(String action, String target, String before, String after) {
    }

    /** Leaves what changed for the API audit entry of this request. */
    public static void note(HttpServletRequest request, String action, String target, String before, String after) {
        request.setAttribute(NOTE_ATTRIBUTE, new Note(action, target, before, after));
    }

    public void record(Source source, Long clientId, String actor, String action, String target, String before,
            String after) {
        jdbc.sql("""
                INSERT INTO audit_log (actor, action, target, before, after, source, client_id)
                VALUES (?, ?, ?, ?, ?, ?, ?)""")
            .params(cut(actor, 200), cut(action, 100), cut(target, 500), cut(before, MAX_VALUE_CHARS),
                cut(after, MAX_VALUE_CHARS), source.name().toLowerCase(java.util.Locale.ROOT), clientId)
            .update();
    }

    /** A change made in the console by {@code actor} (a console user). */
    public void console(String actor, String action, String target, String before, String after) {
        record(Source.CONSOLE, null, actor, action, target, before, after);
    }

    /** The newest entries, newest first. */
    public List<Entry> latest(int limit) {
        return jdbc.sql("""
                SELECT at, actor, action, target, before, after, source, client_id
                FROM audit_log ORDER BY id DESC LIMIT ?""")
            .param(limit)
            .query((rs, n) -> new Entry(rs.getObject("at", OffsetDateTime.class), rs.getString("actor"),
                rs.getString("action"), rs.getString("target"), rs.getString("before"), rs.getString("after"),
                rs.getString("source"), (Long) rs.getObject("client_id")))
            .list();
    }

    public record Entry(OffsetDateTime at, String actor, String action, String target, String before, String after,
            String source, Long clientId) {
    }

    private static String cut(String value, int max) {
        if (value == null || value.length() <= max) {
            return value;
        }
        return value.substring(0, max - 1) + "…";
    }
}
