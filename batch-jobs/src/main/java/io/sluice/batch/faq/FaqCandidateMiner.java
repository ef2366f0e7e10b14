package io.sluice.batch.faq;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.Vectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Mines FAQ candidates from conversation logs: customer questions whose answer came from a low tier
 * (F1 FAQ/extractive, F2 fast) or was marked not helpful, grouped by embedding similarity (greedy
 * clustering on the unit vectors of the knowledge {@link Embedder}). A group with at least
 * {@code minOccurrences} questions becomes a PROPOSED candidate, unless a candidate for the same question
 * exists (a proposed one gets its counts refreshed; a reviewed one is not proposed again). Nothing here
 * touches the FAQ: only a reviewer's approve/merge does.
 */
public class FaqCandidateMiner {

    private static final Logger log = LoggerFactory.getLogger(FaqCandidateMiner.class);
    private static final int MAX_EXAMPLES = 5;

    /** What one run found. */
    public record Result(int questions, int groups, int proposed, int refreshed) {
    }

    private record Question(String text, boolean lowTier, boolean negative) {
    }

    private static final class Group {
        final float[] sum;
        final List<Question> members = new ArrayList<>();
        final List<float[]> vectors = new ArrayList<>();

        Group(int dimension) {
            sum = new float[dimension];
        }

        void add(Question q, float[] v) {
            members.add(q);
            vectors.add(v);
            for (int i = 0; i < sum.length; i++) {
                sum[i] += v[i];
            }
        }

        float similarity(float[] v) {
            double norm = 0;
            for (float f : sum) {
                norm += f * f;
            }
            return norm == 0 ? 0 : (float) (Vectors.dot(sum, v) / Math.sqrt(norm));
        }
    }

    private final JdbcTemplate jdbc;
    private final Embedder embedder;
    private final FaqCandidateStore candidates;
    private final Duration window;
    private final int minOccurrences;
    private final double similarity;
    private final int maxMessages;

    public FaqCandidateMiner(JdbcTemplate jdbc, Embedder embedder, FaqCandidateStore candidates, Duration window,
            int minOccurrences, double similarity, int maxMessages) {
        this.jdbc = jdbc;
        this.embedder = embedder;
        this.candidates = candidates;
        this.window = window;
        this.minOccurrences = minOccurrences;
        this.similarity = similarity;
        this.maxMessages = maxMessages;
    }

    public Result mine() {
        List<Question> questions = jdbc.query("""
            SELECT u.content, a.tier IN ('F1', 'F2') AS low, a.feedback = 'NOT_HELPFUL' AS negative
            FROM conversation_message u
            JOIN conversation_message a ON a.request_id = u.request_id AND a.role = 'ASSISTANT'
            WHERE u.role = 'USER' AND u.created_at > now() - make_interval(secs => ?)
              AND (a.tier IN ('F1', 'F2') OR a.feedback = 'NOT_HELPFUL')
            ORDER BY u.id DESC LIMIT ?""",
            (rs, n) -> new Question(rs.getString(1).strip(), rs.getBoolean(2), rs.getBoolean(3)),
            (double) window.toSeconds(), maxMessages);
        questions = questions.stream().filter(q -> !q.text().isEmpty()).toList();
        if (questions.isEmpty()) {
            return new Result(0, 0, 0, 0);
        }
        List<float[]> vectors = embedder.embedAll(questions.stream().map(Question::text).toList());
        List<Group> groups = new ArrayList<>();
        for (int i = 0; i < questions.size(); i++) {
            Group best = null;
            float bestSim = (float) similarity;
            for (Group g : groups) {
                float s = g.similarity(vectors.get(i));
                if (s >= bestSim) {
                    best = g;
                    bestSim = s;
                }
            }
            if (best == null) {
                best = new Group(embedder.dimension());
                groups.add(best);
            }
            best.add(questions.get(i), vectors.get(i));
        }
        List<FaqCandidate> known = candidates.list(null, 2000);
        List<float[]> knownVectors = known.isEmpty() ? List.of()
            : embedder.embedAll(known.stream().map(FaqCandidate::question).toList());
        int proposed = 0;
        int refreshed = 0;
        int frequent = 0;
        for (Group g : groups) {
            if (g.members.size() < minOccurrences) {
                continue;
            }
            frequent++;
            int representative = 0;
            float bestSim = -2;
            for (int i = 0; i < g.members.size(); i++) {
                float s = g.similarity(g.vectors.get(i));
                if (s > bestSim) {
                    bestSim = s;
                    representative = i;
                }
            }
            float[] repVector = g.vectors.get(representative);
            int lowTier = (int) g.members.stream().filter(Question::lowTier).count();
            int negative = (int) g.members.stream().filter(Question::negative).count();
            FaqCandidate existing = null;
            for (int k = 0; k < known.size(); k++) {
                if (Vectors.dot(repVector, knownVectors.get(k)) >= similarity) {
                    existing = known.get(k);
                    break;
                }
            }
            if (existing != null) {
                if ("PROPOSED".equals(existing.status())) {
                    candidates.refresh(existing.id(), g.members.size(), lowTier, negative);
                    refreshed++;
                }
                continue;
            }
            String question = g.members.get(representative).text();
            Map<String, Boolean> examples = new LinkedHashMap<>();
            for (Question q : g.members) {
                if (!q.text().equals(question) && examples.size() < MAX_EXAMPLES) {
                    examples.put(q.text(), true);
                }
            }
            candidates.insert(question, List.copyOf(examples.keySet()), g.members.size(), lowTier, negative);
            proposed++;
        }
        Result result = new Result(questions.size(), frequent, proposed, refreshed);
        log.info("FAQ candidates mined: {}", result);
        return result;
    }
}
