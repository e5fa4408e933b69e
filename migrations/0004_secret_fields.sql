-- sfdb: not additive — an older release would let clients cache objects whose static values hold secrets.
-- Static values may hold secrets (keys, passwords) when the writer names those top-level
-- keys: the object is then never kept in a client's cache (a read is always an RPC), and
-- nothing that carries them leaves the row (change rows carry ids only; errors and logs
-- never echo static values).
ALTER TABLE object_values ADD COLUMN secret_fields JSON NOT NULL DEFAULT '[]' AFTER static_values;
