-- sfdb: additive — a new index: an older release neither knows nor minds it.
-- Retired counters by age: the elected maintenance job folds the ones older than the
-- retention into the counter floor (server/rpc/counter-floor.ts, foldRetiredCounters), so
-- the table holds one retention's deletes, not every delete ever made.
ALTER TABLE retired_counters ADD INDEX retired_counters_age (retired_at);
