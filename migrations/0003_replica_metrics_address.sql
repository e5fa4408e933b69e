-- Where each replica serves /metrics: load tools (sf-ctl load, audit) find every live
-- replica's counters from the registry instead of a hand-kept list of addresses.
ALTER TABLE tier_replicas ADD COLUMN metrics_address VARCHAR(255) NOT NULL DEFAULT '' AFTER address;
