-- sfdb: additive — an older release neither reads nor writes the column (its default fills it).
-- Where each replica serves /metrics: load tools (sf-ctl load, audit) find every live
-- replica's counters from the registry instead of a hand-kept list of addresses.
ALTER TABLE tier_replicas ADD COLUMN metrics_address VARCHAR(255) NOT NULL DEFAULT '' AFTER address;
