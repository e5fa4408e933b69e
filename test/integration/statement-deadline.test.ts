// A call's remaining deadline bounds its statements: a write blocked on a row lock is
// stopped when its call's deadline passes, instead of holding a pool connection for the
// lock wait timeout (50 s) after its client has gone.
import { describe, expect, it } from 'vitest';
import { DatabaseUnavailable } from '../../client/index.js';
import { metricValue } from '../../harness/scrape.js';
import { useTestTier } from '../helpers/tier.js';

const { t } = useTestTier();

async function blockedStatements(): Promise<number> {
  const [rows] = await t.direct.query("SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND INFO LIKE '%cluster_config%'");
  return Number((rows as { n: string }[])[0]?.n);
}

async function until(what: string, cond: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 15 s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('statements bounded by the call deadline', () => {
  it('stops a statement blocked past its deadline; the connection is free again, the lock untouched', async () => {
    const db = t.client({ callerDaemon: 'net', cache: false, maxAttempts: 1 });
    await db.setClusterConfig('locked', 'v0');
    const before = metricValue(await t.metrics(), 'database_statements_stopped_total');
    await t.direct.query('BEGIN');
    try {
      await t.direct.query("SELECT * FROM cluster_config WHERE config_key = 'locked' FOR UPDATE");
      const err = await db.setClusterConfig('locked', 'v1', { deadlineMs: 800 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseUnavailable);
      // The tier stops its statement at the call's deadline: no statement of it waits on.
      await until('the blocked statement is gone', async () => (await blockedStatements()) === 0);
      expect(metricValue(await t.metrics(), 'database_statements_stopped_total') - before).toBeGreaterThanOrEqual(1);
    } finally {
      await t.direct.query('ROLLBACK');
    }
    // Nothing was written by the stopped call, and the tier serves the row normally.
    expect((await db.getClusterConfig('locked'))?.value).toBe('v0');
    await db.setClusterConfig('locked', 'v2');
    expect((await db.getClusterConfig('locked'))?.value).toBe('v2');
  });
});
