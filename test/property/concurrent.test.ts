// Hostile input, at once: bursts of generated requests sent concurrently, often the same
// RPC on the same rows (the pools are small), so that writes collide on locks. Each
// answer is deliberate (never INTERNAL, UNKNOWN, UNAVAILABLE) and an INVALID_ARGUMENT
// names a field. Rows are not compared: a burst's accepted calls write meanwhile.
// First, pinned, what the bursts found: concurrent PruneEvents deadlock in MariaDB and
// the deadlock (1213) reaches the client as INTERNAL. It has a tier (and database) of
// its own, as it empties the events table.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestTier } from '../helpers/tier.js';
import { restoreFixtures, seedFixtures } from './fixtures.js';
import { RawClient, codeName, decode, encode, inFlight, show } from './raw.js';
import { requestGen } from './requests.js';
import { methods } from './schema.js';
import type { Method } from './schema.js';
import { expectDeliberate } from './verdict.js';

const SEED = Number(process.env['SFDB_PROPERTY_SEED'] ?? 20_261_129);
const RUNS = Number(process.env['SFDB_PROPERTY_RUNS'] ?? 25);

async function burst(raw: RawClient, calls: readonly { method: Method; request: Record<string, unknown> }[], counts: Record<string, number> = {}): Promise<void> {
  const sent = calls.flatMap(({ method, request }) => {
    const body = encode(method.name, request);
    return typeof body === 'string' ? [] : [{ method, request, body }];
  });
  const answers = await Promise.all(sent.map(({ method, body }) => raw.send(method.name, body)));
  answers.forEach((answer, i) => {
    const { method, request, body } = sent[i] as (typeof sent)[number];
    counts[codeName(answer.code)] = (counts[codeName(answer.code)] ?? 0) + 1;
    expectDeliberate({ what: `${method.name} ${show(request)} (one of ${sent.length} at once)`, answer, requestType: method.requestType, request: decode(method.name, body), changed: [] });
  });
}

const byName = (name: string): Method => methods().find((m) => m.name === name) as Method;

describe('concurrent PruneEvents (pinned)', () => {
  const { t } = useTestTier();

  it('eight PruneEvents at once over old events answer deliberately (found by the bursts: a deadlock answered INTERNAL)', async () => {
    const raw = new RawClient(`127.0.0.1:${t.tier.grpcPort}`);
    try {
      for (let round = 0; round < 3; round++) {
        // A fresh table of 3000 events an hour or more old, a thousand to a timestamp (as
        // batches of RecordEvents are): the state in which the DELETEs deadlock (measured:
        // nearly every round; once the table has been pruned, MariaDB plans it otherwise).
        await t.direct.query('TRUNCATE TABLE events');
        await t.direct.query(
          `INSERT INTO events (object_type, object_uuid, event_type, message, extra, recorded_at)
           SELECT 'instance', 'f0000002-0000-4000-8000-000000000001', 'ev', '', NULL, UTC_TIMESTAMP(6) - INTERVAL (seq DIV 1000) + 1 HOUR FROM seq_0_to_2999`,
        );
        await burst(raw, Array.from({ length: 8 }, () => ({ method: byName('PruneEvents'), request: { olderThanMs: '1000', limit: 0 } })));
      }
    } finally {
      raw.close();
    }
  });
});

describe('concurrent bursts of generated requests answer deliberately', () => {
  const { t, db } = useTestTier();
  let raw: RawClient;

  beforeAll(async () => {
    raw = new RawClient(`127.0.0.1:${t.tier.grpcPort}`);
    await seedFixtures(t, db);
    console.log(`concurrent: seed ${SEED}, ${RUNS * 2} bursts (SFDB_PROPERTY_SEED / SFDB_PROPERTY_RUNS to change)`);
  });
  afterAll(() => raw?.close());

  it('bursts of generated requests, often one RPC on the same rows', async () => {
    await restoreFixtures(t, db);
    const call = (m: Method): fc.Arbitrary<{ method: Method; request: Record<string, unknown> }> => requestGen(m).map((request) => ({ method: m, request }));
    const bursts = fc.oneof(
      fc.constantFrom(...methods()).chain((m) => fc.array(call(m), { minLength: 4, maxLength: 24 })),
      fc.array(fc.constantFrom(...methods()).chain(call), { minLength: 4, maxLength: 24 }),
    );
    const counts: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(bursts, (calls) => burst(raw, calls, counts)),
      { seed: SEED, numRuns: RUNS * 2 },
    );
    console.log(`bursts (seed ${SEED}): ${Object.entries(counts).map(([c, n]) => `${c} ${n}`).join(', ')}`);
  });

  it('still serves afterwards, with nothing left in flight', async () => {
    await expect(db.call('GetNode', { uuid: '00000000-0000-4000-8000-000000000000' })).resolves.toMatchObject({ found: false });
    expect(inFlight(await t.metrics())).toBe(0);
  });
});
