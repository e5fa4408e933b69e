// Cluster config: one row per key with a JSON value and a version that starts at 1 (or
// the restore floor: ../counter-floor.ts) and grows by one on every write. Each conditional write is a single statement, so two
// writers racing on a key cannot both succeed against the same version.
import type { Sql } from '../../db/sql.js';
import { firstCount } from '../counter-floor.js';

export interface ConfigRow {
  value: string;
  version: string;
  updated_at: string;
}

export async function selectConfig(sql: Sql, key: string): Promise<ConfigRow | undefined> {
  const rows = await sql.rows<ConfigRow>('SELECT value, version, updated_at FROM cluster_config WHERE config_key = ?', [key]);
  return rows[0];
}

/** Writes whatever the current version; answers the new one. */
export async function upsertConfig(sql: Sql, key: string, value: string): Promise<string | undefined> {
  const first = firstCount();
  const rows = await sql.rows<{ version: string }>(
    `INSERT INTO cluster_config (config_key, value, version, updated_at) VALUES (?, ?, ${first.sql}, UTC_TIMESTAMP(6))
     ON DUPLICATE KEY UPDATE value = VALUES(value), version = version + 1, updated_at = VALUES(updated_at)
     RETURNING version`,
    [key, value, ...first.params],
  );
  return rows[0]?.version;
}

/** Writes the first version only when the key is absent; answers it, or undefined when the key exists. */
export async function insertConfigIfAbsent(sql: Sql, key: string, value: string): Promise<string | undefined> {
  const first = firstCount();
  const rows = await sql.rows<{ version: string }>(
    `INSERT IGNORE INTO cluster_config (config_key, value, version, updated_at) VALUES (?, ?, ${first.sql}, UTC_TIMESTAMP(6))
     RETURNING version`,
    [key, value, ...first.params],
  );
  return rows[0]?.version;
}

/** Writes only at `expectedVersion` (a decimal string); answers 1 when it did, else 0. */
export async function updateConfigAtVersion(sql: Sql, key: string, value: string, expectedVersion: string): Promise<number> {
  const r = await sql.run(
    `UPDATE cluster_config SET value = ?, version = version + 1, updated_at = UTC_TIMESTAMP(6)
     WHERE config_key = ? AND version = CAST(? AS UNSIGNED)`,
    [value, key, expectedVersion],
  );
  return r.affectedRows;
}
