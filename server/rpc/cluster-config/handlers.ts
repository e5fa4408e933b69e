// Cluster config: small JSON values by key, with optimistic concurrency.
// expected_version: 0 writes unconditionally, -1 only when the key is absent, N only
// when the key is at version N. A mismatch is a Conflict of kind 'version' (ABORTED):
// re-read and decide again.
import { ConflictError } from '../../errors.js';
import { topics } from '@sfdb/proto/topics';
import type { Sql } from '../../db/sql.js';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import { holdFence, optionalFence } from '../fence.js';
import * as q from './queries.js';

export const MAX_CONFIG_VALUE_BYTES = 64 * 1024;
const MAX_KEY_LENGTH = 128;

export const clusterConfigHandlers: Handlers<'GetClusterConfig' | 'SetClusterConfig'> = {
  async GetClusterConfig(req, { sql }) {
    const row = await q.selectConfig(sql, v.name('key', req.key, MAX_KEY_LENGTH));
    if (!row) return { found: false };
    return { found: true, value: row.value, version: row.version, updatedAt: isoTime(row.updated_at) };
  },

  async SetClusterConfig(req, { write }) {
    const key = v.name('key', req.key, MAX_KEY_LENGTH);
    const value = v.json('value', req.value, { maxBytes: MAX_CONFIG_VALUE_BYTES });
    const expected = v.int64String('expected_version', req.expectedVersion, { min: -1n });
    const fence = optionalFence(req.fence);
    return write(async (sql, publish) => {
      await holdFence(sql, fence);
      const r = await setConfig(sql, key, value, expected);
      publish({ topic: topics.clusterConfig(), objectType: 'cluster_config', objectId: key, kind: 'updated' });
      return r;
    });
  },
};

/** The write of SetClusterConfig: unconditional, only if absent (-1), or at a version. */
async function setConfig(sql: Sql, key: string, value: string, expected: string): Promise<{ version: string }> {
  if (expected === '0') {
    const version = await q.upsertConfig(sql, key, value);
    if (version === undefined) throw new Error('cluster config upsert returned no row');
    return { version };
  }
  if (expected === '-1') {
    const version = await q.insertConfigIfAbsent(sql, key, value);
    if (version === undefined) throw new ConflictError(`cluster config ${key} already exists`, 'version');
    return { version };
  }
  if ((await q.updateConfigAtVersion(sql, key, value, expected)) === 0) {
    throw new ConflictError(`cluster config ${key} is not at version ${expected}`, 'version');
  }
  return { version: (BigInt(expected) + 1n).toString() };
}
