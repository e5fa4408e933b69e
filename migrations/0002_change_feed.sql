-- The change feed (SPEC §9): every mutating RPC appends rows here in the transaction of
-- its write, so a change is visible exactly when the write is. Rows carry ids and kinds,
-- never payloads. `seq` is allocated at insert and rows commit out of seq order: readers
-- hold a gap open for a bounded time before moving past it (server/changefeed/).
-- Readers: each replica's tailer (seq > its high mark, by primary key; the open gaps by
-- primary key). Pruning: rows older than the retention, oldest first, by changes_created.
CREATE TABLE changes (
  seq BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  topic VARCHAR(200) NOT NULL,
  object_type VARCHAR(32) NOT NULL,
  object_id VARCHAR(128) NOT NULL,
  kind VARCHAR(16) NOT NULL,
  created_at DATETIME(6) NOT NULL,
  PRIMARY KEY (seq),
  KEY changes_created (created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
