-- Knowledge (V200-V299): stable external keys for FAQ entries, so files, the API and snapshots can
-- name an entry across rebuilds. The V4 seed rows have none; the sample loader adopts them by question.
ALTER TABLE faq_entry ADD COLUMN external_id VARCHAR(200);
CREATE UNIQUE INDEX faq_entry_external_id_idx ON faq_entry (external_id) WHERE external_id IS NOT NULL;
