-- sfdb: additive — an older release neither reads nor writes the column (its default fills it).
-- The token whose unrenewed end was announced on lease/<name> (server/rpc/leases/expiry.ts).
-- Replicas that find the same end at once each claim its announcement here; only the one
-- whose update changed the row publishes, so a lease's standbys hear one end, not one per
-- replica (a second announcement after the takeover would send every standby to ask again).
ALTER TABLE leases ADD COLUMN end_announced_token BIGINT UNSIGNED NOT NULL DEFAULT 0;
