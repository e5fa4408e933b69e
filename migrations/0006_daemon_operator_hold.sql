-- sfdb: additive — an older release neither reads nor writes the column (its default fills it); it does not enforce a hold either.
-- An operator stop that outlives the daemon's process: set by sf-ctl stop-daemon, left as
-- it is by the daemon's own writes, released by sf-ctl start-daemon. While it is set the
-- tier refuses the daemon's RUNNING and IDLE (FAILED_PRECONDITION), so a daemon that its
-- supervisor restarts stays stopped until an operator starts it.
ALTER TABLE node_daemon_states ADD COLUMN operator_hold TINYINT(1) NOT NULL DEFAULT 0 AFTER message;
