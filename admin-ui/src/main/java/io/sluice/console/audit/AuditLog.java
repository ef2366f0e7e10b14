package io.sluice.console.audit;

import java.time.OffsetDateTime;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/** Every change made through the console: who, when, what, before → after. Never holds secrets. */
@Service
public class AuditLog {

    private final JdbcClient jdbc;

    public AuditLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public void record(String actor, String action, String target, String before, String after) {
        jdbc.sql("INSERT INTO audit_log (actor, action, target, before, after) VALUES (?, ?, ?, ?, ?)")
            .params(actor, action, target, before, after)
            .update();
    }

    public List<Entry> latest(int limit) {
        return jdbc.sql("SELECT at, actor, action, target, before, after FROM audit_log ORDER BY id DESC LIMIT ?")
            .param(limit)
            .query((rs, n) -> new Entry(rs.getObject("at", OffsetDateTime.class), rs.getString("actor"),
                rs.getString("action"), rs.getString("target"), rs.getString("before"), rs.getString("after")))
            .list();
    }

    public record Entry(OffsetDateTime at, String actor, String action, String target, String before, String after) {
    }
}
