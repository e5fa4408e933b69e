-- sfdb: not additive — an older release would start new leases at token 1, new work items at epoch 0 and new rows at version 1, below the floor a restore set, and could so hand out again a token or epoch a holder from before the restore still has.
-- The counter floor (one row): every lease token, claim epoch and version a new row starts
-- from is at least this. 0 until a restore from a backup (sf-database restore) raises it
-- past anything the cluster before the restore can have issued; rows restored from the
-- backup are raised to it, so the counters of every row continue above it.
CREATE TABLE counter_floor (
  id TINYINT UNSIGNED NOT NULL,
  floor_value BIGINT UNSIGNED NOT NULL,
  restored_at DATETIME(6) NULL,
  restored_from VARCHAR(255) NOT NULL DEFAULT '',
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
INSERT INTO counter_floor (id, floor_value) VALUES (1, 0);
