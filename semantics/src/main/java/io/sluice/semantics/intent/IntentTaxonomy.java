package io.sluice.semantics.intent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The operator's intent taxonomy in PostgreSQL ({@code intent_definition}, {@code intent_example}).
 * Every change is one transaction: an import either lands whole or leaves the taxonomy as it was.
 */
public class IntentTaxonomy {

    /** Examples per intent beyond which a save is refused (keeps training in seconds). */
    public static final int MAX_EXAMPLES_PER_INTENT = 5_000;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;

    public IntentTaxonomy(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new TransactionTemplate(transactionManager);
    }

    public boolean isEmpty() {
        return jdbc.queryForObject("SELECT COUNT(*) FROM intent_definition", Integer.class) == 0;
    }

    /** Every intent with its examples, by key. */
    public List<IntentDefinition> all() {
        Map<String, List<String>> examples = new LinkedHashMap<>();
        jdbc.query("SELECT intent_key, text FROM intent_example ORDER BY intent_key, id",
            rs -> {
                examples.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
            });
        return jdbc.query("SELECT key, priority, description, owner, updated_at FROM intent_definition ORDER BY key",
            (rs, n) -> new IntentDefinition(rs.getString(1), rs.getString(2), rs.getString(3),
                examples.getOrDefault(rs.getString(1), List.of()), rs.getString(4), rs.getTimestamp(5).toInstant()));
    }

    /** Every intent without its examples (key, class, description), by key: cheap enough to read often. */
    public List<IntentDefinition> definitions() {
        return jdbc.query("SELECT key, priority, description, owner, updated_at FROM intent_definition ORDER BY key",
            (rs, n) -> new IntentDefinition(rs.getString(1), rs.getString(2), rs.getString(3), List.of(),
                rs.getString(4), rs.getTimestamp(5).toInstant()));
    }

    /** Examples per intent key (intents without examples absent). */
    public Map<String, Integer> exampleCounts() {
        Map<String, Integer> out = new LinkedHashMap<>();
        jdbc.query("SELECT intent_key, COUNT(*) FROM intent_example GROUP BY intent_key ORDER BY intent_key",
            rs -> {
                out.put(rs.getString(1), rs.getInt(2));
            });
        return out;
    }

    public Optional<IntentDefinition> find(String key) {
        return jdbc.query("SELECT key, priority, description, owner, updated_at FROM intent_definition WHERE key = ?",
            (rs, n) -> new IntentDefinition(rs.getString(1), rs.getString(2), rs.getString(3),
                jdbc.queryForList("SELECT text FROM intent_example WHERE intent_key = ? ORDER BY id", String.class, key),
                rs.getString(4), rs.getTimestamp(5).toInstant()), key).stream().findFirst();
    }

    /** Every example with its intent (what training reads). */
    public List<LabelledText> examples() {
        return jdbc.query("SELECT text, intent_key FROM intent_example ORDER BY id",
            (rs, n) -> new LabelledText(rs.getString(1), rs.getString(2)));
    }

    /** Creates or replaces one intent and its examples. */
    public void save(IntentDefinition intent, String actor) {
        apply(new TaxonomyChange(List.of(intent), List.of(), true), actor);
    }

    /** Deletes an intent and its examples; false when there was none. */
    public boolean delete(String key) {
        return jdbc.update("DELETE FROM intent_definition WHERE key = ?", key) > 0;
    }

    /**
     * Applies a validated change atomically: intents upserted (their examples replaced when
     * {@code replaceExamples}, else added), then the extra examples added to existing intents.
     *
     * @throws IllegalArgumentException when an example names an intent that neither exists nor is in the change
     */
    public TaxonomyChange.Applied apply(TaxonomyChange change, String actor) {
        return tx.execute(s -> {
            jdbc.queryForObject("SELECT pg_advisory_xact_lock(hashtext('intent_taxonomy'))", Object.class);
            int created = 0;
            for (IntentDefinition intent : change.intents()) {
                if (intent.examples().size() > MAX_EXAMPLES_PER_INTENT) {
                    throw new IllegalArgumentException("intent " + intent.key() + ": more than "
                        + MAX_EXAMPLES_PER_INTENT + " examples");
                }
                int inserted = jdbc.update("""
                    INSERT INTO intent_definition (key, priority, description, owner) VALUES (?, ?, ?, ?)
                    ON CONFLICT (key) DO NOTHING""", intent.key(), intent.priority(), intent.description(),
                    intent.owner() == null ? actor : intent.owner());
                if (inserted == 0) {
                    jdbc.update("UPDATE intent_definition SET priority = ?, description = CASE WHEN ? = '' THEN description "
                        + "ELSE ? END, updated_at = now() WHERE key = ?", intent.priority(), intent.description(),
                        intent.description(), intent.key());
                    if (change.replaceExamples()) {
                        jdbc.update("DELETE FROM intent_example WHERE intent_key = ?", intent.key());
                    }
                }
                created += inserted;
                addExamples(intent.key(), intent.examples());
            }
            int added = 0;
            for (LabelledText example : change.examples()) {
                Integer known = jdbc.queryForObject("SELECT COUNT(*) FROM intent_definition WHERE key = ?", Integer.class,
                    example.intent());
                if (known == null || known == 0) {
                    throw new IllegalArgumentException("unknown intent '" + example.intent() + "'");
                }
                added += addExamples(example.intent(), List.of(example.text()));
            }
            for (IntentDefinition intent : change.intents()) {
                added += intent.examples().size();
            }
            return new TaxonomyChange.Applied(created, change.intents().size() - created, added);
        });
    }

    private int addExamples(String key, List<String> texts) {
        int added = 0;
        for (String text : texts) {
            added += jdbc.update("INSERT INTO intent_example (intent_key, text) VALUES (?, ?) ON CONFLICT DO NOTHING",
                key, text);
        }
        return added;
    }
}
