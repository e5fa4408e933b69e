-- sf-database initial schema (SPEC §3).
-- Times are DATETIME(6) in UTC, always written from UTC_TIMESTAMP(6): database time
-- decides liveness and expiry, never a node's clock. Every periodic query has an index
-- that begins with its scope column and touches only active rows.

CREATE TABLE nodes (
  uuid CHAR(36) NOT NULL,
  fqdn VARCHAR(255) NOT NULL,
  ip_address VARCHAR(45) NOT NULL DEFAULT '',
  version BIGINT UNSIGNED NOT NULL DEFAULT 1,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (uuid),
  UNIQUE KEY nodes_fqdn (fqdn)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE node_heartbeats (
  node_uuid CHAR(36) NOT NULL,
  heartbeat_at DATETIME(6) NOT NULL,
  stats JSON NOT NULL,
  PRIMARY KEY (node_uuid)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE node_daemon_states (
  node_uuid CHAR(36) NOT NULL,
  daemon VARCHAR(64) NOT NULL,
  state VARCHAR(16) NOT NULL,
  message VARCHAR(1024) NOT NULL DEFAULT '',
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (node_uuid, daemon)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Static values of every object type but node (which has its own table): written once,
-- or rarely for the upgradeable types. These are what clients may cache.
CREATE TABLE object_values (
  object_type VARCHAR(32) NOT NULL,
  uuid CHAR(36) NOT NULL,
  namespace VARCHAR(128) NOT NULL DEFAULT '',
  node_uuid CHAR(36) NOT NULL DEFAULT '',
  version BIGINT UNSIGNED NOT NULL DEFAULT 1,
  static_values JSON NOT NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (object_type, uuid),
  KEY object_values_namespace (object_type, namespace, uuid),
  KEY object_values_node (object_type, node_uuid, uuid)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Mutable object state: always read through, never cached.
CREATE TABLE object_states (
  object_type VARCHAR(32) NOT NULL,
  uuid CHAR(36) NOT NULL,
  node_uuid CHAR(36) NOT NULL DEFAULT '',
  state VARCHAR(16) NOT NULL,
  message VARCHAR(1024) NOT NULL DEFAULT '',
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (object_type, uuid),
  KEY object_states_state (object_type, state, uuid),
  KEY object_states_node_state (object_type, node_uuid, state, uuid)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE object_attributes (
  object_type VARCHAR(32) NOT NULL,
  uuid CHAR(36) NOT NULL,
  attr_key VARCHAR(128) NOT NULL,
  value JSON NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (object_type, uuid, attr_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Work items. `seq` orders a queue (FIFO); `epoch` grows on every claim and fences
-- every later write of a claim. Finished items stay as history, so each periodic query
-- is scoped to active states by its index.
CREATE TABLE work_items (
  seq BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  id CHAR(36) NOT NULL,
  node_uuid CHAR(36) NOT NULL,
  queue VARCHAR(64) NOT NULL,
  payload JSON NOT NULL,
  state VARCHAR(16) NOT NULL,
  epoch BIGINT UNSIGNED NOT NULL DEFAULT 0,
  attempts INT UNSIGNED NOT NULL DEFAULT 0,
  claim_holder VARCHAR(128) NOT NULL DEFAULT '',
  claim_expires_at DATETIME(6) NULL,
  not_before DATETIME(6) NOT NULL,
  result JSON NULL,
  message VARCHAR(1024) NOT NULL DEFAULT '',
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (seq),
  UNIQUE KEY work_items_id (id),
  KEY work_items_dequeue (node_uuid, queue, state, seq),
  KEY work_items_claims (state, claim_expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Leases: a row per name; `token` is the fencing token, it grows on every change of
-- holder and is never reset (a released lease keeps its row).
CREATE TABLE leases (
  name VARCHAR(128) NOT NULL,
  holder VARCHAR(128) NOT NULL DEFAULT '',
  token BIGINT UNSIGNED NOT NULL,
  expires_at DATETIME(6) NOT NULL,
  acquired_at DATETIME(6) NOT NULL,
  renewed_at DATETIME(6) NOT NULL,
  PRIMARY KEY (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE ipam_reservations (
  ipam_uuid CHAR(36) NOT NULL,
  address VARCHAR(45) NOT NULL,
  owner_type VARCHAR(32) NOT NULL,
  owner_uuid CHAR(36) NOT NULL,
  reserved_at DATETIME(6) NOT NULL,
  PRIMARY KEY (ipam_uuid, address)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE object_references (
  from_type VARCHAR(32) NOT NULL,
  from_uuid CHAR(36) NOT NULL,
  to_type VARCHAR(32) NOT NULL,
  to_uuid CHAR(36) NOT NULL,
  relation VARCHAR(64) NOT NULL,
  created_at DATETIME(6) NOT NULL,
  PRIMARY KEY (from_type, from_uuid, to_type, to_uuid, relation),
  KEY object_references_to (to_type, to_uuid)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE events (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  object_type VARCHAR(32) NOT NULL,
  object_uuid CHAR(36) NOT NULL,
  event_type VARCHAR(64) NOT NULL,
  message VARCHAR(1024) NOT NULL DEFAULT '',
  extra JSON NULL,
  recorded_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY events_object (object_type, object_uuid, id),
  KEY events_recorded (recorded_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE blob_transfers (
  id CHAR(36) NOT NULL,
  blob_uuid CHAR(36) NOT NULL,
  node_uuid CHAR(36) NOT NULL,
  source_node_uuid CHAR(36) NOT NULL DEFAULT '',
  state VARCHAR(24) NOT NULL,
  bytes_done BIGINT UNSIGNED NOT NULL DEFAULT 0,
  bytes_total BIGINT UNSIGNED NOT NULL DEFAULT 0,
  message VARCHAR(1024) NOT NULL DEFAULT '',
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY blob_transfers_node (node_uuid, state, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE cluster_config (
  config_key VARCHAR(128) NOT NULL,
  value JSON NOT NULL,
  version BIGINT UNSIGNED NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (config_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Tier replicas (the coordination issue gives this its heartbeat and sweep).
CREATE TABLE tier_replicas (
  replica_id VARCHAR(128) NOT NULL,
  owner_token CHAR(36) NOT NULL,
  address VARCHAR(255) NOT NULL DEFAULT '',
  started_at DATETIME(6) NOT NULL,
  heartbeat_at DATETIME(6) NOT NULL,
  PRIMARY KEY (replica_id),
  KEY tier_replicas_heartbeat (heartbeat_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
