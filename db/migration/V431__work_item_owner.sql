-- Security (issue 14): tasks, deferred answers and idempotency keys belong to the API client that made
-- them. client_id NULL = internal work (jobs, the console). An idempotency key is unique per owner, so
-- one client's key can never find (or collide with) another client's task.
ALTER TABLE work_item ADD COLUMN client_id BIGINT REFERENCES api_client (id);
ALTER TABLE work_item DROP CONSTRAINT work_item_idempotency_key_key;
CREATE UNIQUE INDEX work_item_owner_idempotency_idx ON work_item (coalesce(client_id, 0), idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX work_item_owner_idx ON work_item (client_id) WHERE client_id IS NOT NULL;
