-- sfdb: not additive — an older release would re-create a deleted node, object or work item at version 1 or epoch 0 again, and could so hand out a version or epoch a holder of the deleted one still presents.
-- The last counter of every deleted row that a client can hold and present back (a node's
-- or object's version, a work item's claim epoch), by table and id. A row created again
-- with the id of a deleted one starts above it (server/rpc/counter-floor.ts), so a stale
-- conditional update or a late Resolve aimed at the deleted row finds no match in the new
-- one. One row per deleted id; read by primary key only when a row is created.
CREATE TABLE retired_counters (
  counter_kind VARCHAR(48) NOT NULL,
  counter_id CHAR(36) NOT NULL,
  last_value BIGINT UNSIGNED NOT NULL,
  retired_at DATETIME(6) NOT NULL,
  PRIMARY KEY (counter_kind, counter_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
