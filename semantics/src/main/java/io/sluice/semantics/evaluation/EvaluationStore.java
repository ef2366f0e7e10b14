package io.sluice.semantics.evaluation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;

/** Kept evaluation reports ({@code semantic_evaluation}), so the console shows the latest of each kind. */
public class EvaluationStore {

    private static final TypeReference<LinkedHashMap<String, Double>> METRICS = new TypeReference<>() {
    };

    private final JdbcTemplate jdbc;
    private final ObjectMapper json;

    public EvaluationStore(JdbcTemplate jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** Stores a report with who asked for it; returns its id. */
    public long save(EvaluationReport report, String actor, String source) {
        return jdbc.queryForObject("""
            INSERT INTO semantic_evaluation (kind, items, metrics, details, model_version, actor, source, created_at)
            VALUES (?, ?, CAST(? AS jsonb), CAST(? AS jsonb), ?, ?, ?, ?) RETURNING id""", Long.class,
            report.kind(), report.items(), json.writeValueAsString(report.metrics()),
            report.details() == null ? "{}" : report.details(), report.modelVersion(), actor, source,
            java.sql.Timestamp.from(report.createdAt()));
    }

    /** The newest report of a kind. */
    public Optional<EvaluationReport> latest(String kind) {
        return recent(kind, 1).stream().findFirst();
    }

    /** The newest reports of a kind, newest first. */
    public List<EvaluationReport> recent(String kind, int limit) {
        return jdbc.query("""
            SELECT kind, items, metrics::text, details::text, model_version, created_at FROM semantic_evaluation
            WHERE kind = ? ORDER BY id DESC LIMIT ?""", (rs, n) -> new EvaluationReport(rs.getString(1), rs.getInt(2),
            metrics(rs.getString(3)), rs.getString(4), rs.getLong(5), rs.getTimestamp(6).toInstant()), kind, limit);
    }

    private Map<String, Double> metrics(String text) {
        return json.readValue(text, METRICS);
    }
}
