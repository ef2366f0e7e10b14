package io.sluice.api.session;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.sluice.api.auth.ApiClient;
import io.sluice.api.masking.PiiMasker;

import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * A client reads its own sessions, never another client's: someone else's session is simply not
 * found (404), so ids cannot be probed.
 */
@RestController
@RequestMapping(path = "/api/v1/sessions", produces = MediaType.APPLICATION_JSON_VALUE)
public class SessionController {

    private final JdbcClient jdbc;
    private final PiiMasker masker;

    public SessionController(JdbcClient jdbc, PiiMasker masker) {
        this.jdbc = jdbc;
        this.masker = masker;
    }

    @GetMapping("/{sessionId}")
    public SessionView session(ApiClient client, @PathVariable UUID sessionId) {
        SessionView head = jdbc.sql("SELECT id, user_id, created_at, updated_at FROM conversation WHERE id = ? AND client_id = ?")
            .params(sessionId, client.id())
            .query((rs, row) -> new SessionView(rs.getObject("id", UUID.class), rs.getString("user_id"),
                instant(rs, "created_at"), instant(rs, "updated_at"), List.of()))
            .optional()
            .orElseThrow(() -> new ResponseStatusException(org.springframework.http.HttpStatus.NOT_FOUND,
                "no session " + sessionId + " for this client"));
        List<SessionView.Message> messages = jdbc.sql("""
                SELECT request_id, role, content, tier, intent, priority, cached, latency_ms, created_at
                FROM conversation_message WHERE conversation_id = ? ORDER BY id""")
            .param(sessionId)
            .query((rs, row) -> new SessionView.Message(rs.getObject("request_id", UUID.class), rs.getString("role"),
                rs.getString("content"), rs.getString("tier"), rs.getString("intent"), rs.getString("priority"),
                rs.getBoolean("cached"), (Integer) rs.getObject("latency_ms"), instant(rs, "created_at")))
            .list();
        return new SessionView(head.sessionId(), head.userId(), head.createdAt(), head.updatedAt(), messages);
    }

    /** The client's sessions of one user, newest first (at most 50). */
    @GetMapping
    public List<SessionView.Summary> sessions(ApiClient client,
            @RequestParam String userId) {
        return jdbc.sql("""
                SELECT c.id, c.user_id, c.created_at, c.updated_at,
                       (SELECT count(*) FROM conversation_message m WHERE m.conversation_id = c.id) AS messages
                FROM conversation c WHERE c.client_id = ? AND c.user_id = ?
                ORDER BY c.updated_at DESC LIMIT 50""")
            .params(client.id(), masker.mask(userId)) // stored masked, like the chat API stores it
            .query((rs, row) -> new SessionView.Summary(rs.getObject("id", UUID.class), rs.getString("user_id"),
                instant(rs, "created_at"), instant(rs, "updated_at"), rs.getInt("messages")))
            .list();
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        return rs.getTimestamp(column).toInstant();
    }
}
