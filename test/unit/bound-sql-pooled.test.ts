// A statement outside a transaction (server/db/bound-sql.ts, BoundSql.pooled) is one chain
// of mysql2 callbacks settling one promise. Against a stand-in for mysql2's callback pool,
// over any sequence of attempt outcomes (an answer, a deadlock, a lock wait timeout, another
// MariaDB error, a parameter mysql2 refuses by throwing, no connection to be had): the
// statement answers when an attempt answers after only retryable failures, and fails with
// the first failure that is not, or with the third; every connection lent is released
// once, a text named for one call alone is closed after every statement it ran, and every
// attempt is counted, charged and leaves Reachability with nothing pending.
import fc from 'fast-check';
import type { Pool } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { metricValue } from '../../harness/scrape.js';
import { BoundSql } from '../../server/db/bound-sql.js';
import { Reachability } from '../../server/db/reachability.js';
import { NO_SLOW_STATEMENTS } from '../../server/db/slow.js';
import type { StatementOwner } from '../../server/db/owner.js';
import { Metrics } from '../../server/metrics.js';

type Outcome = 'answer' | 'deadlock' | 'lockWait' | 'noTable' | 'throws' | 'noConnection';

const ERRNO: Partial<Record<Outcome, number>> = { deadlock: 1213, lockWait: 1205, noTable: 1146 };
const retryable = (o: Outcome): boolean => o === 'deadlock' || o === 'lockWait';

function mysqlError(outcome: Outcome): Error {
  return Object.assign(new Error(`fake ${outcome}`), { errno: ERRNO[outcome], code: `ER_${outcome.toUpperCase()}` });
}

interface Fake {
  pool: Pool;
  lent: number;
  released: number;
  unprepared: string[];
  executed: string[];
}

/** mysql2's callback pool, each attempt ending as `outcomes` says (in turn), answers asynchronous as mysql2's are. */
function fakePool(outcomes: readonly Outcome[]): Fake {
  let next = 0;
  const fake: Fake = { pool: undefined as unknown as Pool, lent: 0, released: 0, unprepared: [], executed: [] };
  const conn = {
    threadId: 7,
    execute(text: string, _params: unknown[], cb: (err: unknown, rows?: unknown) => void): void {
      const outcome = outcomes[next++] ?? 'answer';
      if (outcome === 'throws') throw new TypeError('Bind parameters must not contain undefined');
      fake.executed.push(text);
      setImmediate(() => (outcome === 'answer' ? cb(null, [{ one: 1 }]) : cb(mysqlError(outcome))));
    },
    release: () => void (fake.released += 1),
    unprepare: (text: string) => void fake.unprepared.push(text),
  };
  const core = {
    getConnection(cb: (err: unknown, c?: typeof conn) => void): void {
      if (outcomes[next] === 'noConnection') {
        next += 1;
        setImmediate(() => cb(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', errno: -111 })));
        return;
      }
      fake.lent += 1;
      setImmediate(() => cb(null, conn));
    },
  };
  fake.pool = { pool: core } as unknown as Pool;
  return fake;
}

function owner(unique: boolean, charged: number[]): StatementOwner {
  return {
    operation: 'GetNode',
    callerDaemon: 'bench',
    callerNode: '',
    comment: unique ? " /*traceparent='00-1'*/" : " /*caller='bench'*/",
    traceId: undefined,
    uniqueComment: unique,
    traceContext: undefined,
    charge: (seconds) => void charged.push(seconds),
    countSlow: () => {},
  };
}

/** What the statement fails with when an attempt ends so and is not run again (db/failures.ts). */
const FAILURE: Record<Exclude<Outcome, 'answer'>, string> = {
  deadlock: 'database contention: fake deadlock',
  lockWait: 'database contention: fake lockWait',
  noTable: 'fake noTable',
  throws: 'Bind parameters must not contain undefined',
  noConnection: 'database unavailable: connect ECONNREFUSED',
};

const outcome = fc.constantFrom<Outcome>('answer', 'deadlock', 'lockWait', 'noTable', 'throws', 'noConnection');

describe('a statement outside a transaction, over any attempts', () => {
  it('answers or fails as its attempts say, releasing, closing, counting and charging each', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(outcome, { minLength: 1, maxLength: 4 }), fc.boolean(), async (outcomes, unique) => {
        const fake = fakePool(outcomes);
        const metrics = new Metrics('bound-sql-pooled-test');
        const reach = new Reachability();
        const charged: number[] = [];
        const shared = { pool: fake.pool, metrics, coalescer: undefined, reach, watchdog: undefined, slow: NO_SLOW_STATEMENTS };
        const sql = new BoundSql(shared, fake.pool, 'rpc', owner(unique, charged), false);
        const settled = await sql.rows('SELECT 1 AS one').then(
          (rows) => ({ rows }),
          (err: unknown) => ({ err }),
        );

        // The attempts it made: up to the first that is not a retryable failure, at most 3.
        const made: Outcome[] = [];
        for (const o of outcomes.concat('answer')) {
          made.push(o);
          if (!retryable(o) || made.length === 3) break;
        }
        const last = made[made.length - 1] as Outcome;
        if (last === 'answer') expect(settled).toEqual({ rows: [{ one: 1 }] });
        else expect('err' in settled && (settled.err as Error).message).toBe(FAILURE[last]);

        const lent = made.filter((o) => o !== 'noConnection').length;
        expect(fake.lent).toBe(lent);
        expect(fake.released).toBe(lent);
        expect(fake.unprepared).toEqual(unique ? made.filter((o) => o !== 'noConnection').map(() => "SELECT 1 AS one /*traceparent='00-1'*/") : []);
        expect(charged).toHaveLength(made.length);
        expect(metricValue(await metrics.registry.metrics(), 'database_queries_total', { source: 'rpc' })).toBe(made.length);
        expect((reach as unknown as { pending: number }).pending).toBe(0);
      }),
      { numRuns: 200 },
    );
  });
});
