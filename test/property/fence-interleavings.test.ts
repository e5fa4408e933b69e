// Fenced writes over interleavings (fast-check), against real MariaDB: three holders
// acquire one lease, the lease expires (moved into the past by database time), others
// take it over, and each holder writes with the last fence it was given, stale or not. A
// model of the lease says which writes may land: exactly those of the live holder at its
// current token. Every write's answer and its row (read directly) must agree with it.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fenced } from '../../client/index.js';
import type { LeaseFence } from '../../client/index.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();
const HOLDERS = ['a', 'b', 'c'] as const;
type Holder = (typeof HOLDERS)[number];

type Step = { kind: 'acquire'; holder: Holder } | { kind: 'expire' } | { kind: 'write'; holder: Holder };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom(...HOLDERS).map((holder): Step => ({ kind: 'acquire', holder })),
  fc.constant<Step>({ kind: 'expire' }),
  { arbitrary: fc.constantFrom(...HOLDERS).map((holder): Step => ({ kind: 'write', holder })), weight: 3 },
);

/** The lease as the model has it: who holds it, at which token, whether it is live. */
interface Model {
  holder?: Holder;
  token?: string;
  live: boolean;
}

describe('fenced writes over interleavings of acquire, expire, takeover and write', () => {
  it('a write lands exactly when its fence is the live lease; otherwise Fenced and no row', async () => {
    let landedWrites = 0;
    let refusedWrites = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        const name = `prop/${randomUUID().slice(0, 8)}`;
        const model: Model = { live: false };
        const fences = new Map<Holder, LeaseFence>();
        for (const [i, s] of steps.entries()) {
          if (s.kind === 'acquire') {
            const r = await db.acquireLease(name, s.holder, 60_000);
            expect(r.acquired, `step ${i}: acquire by ${s.holder}`).toBe(!model.live || model.holder === s.holder);
            if (!r.acquired) continue;
            if (model.token !== undefined && model.holder !== s.holder) expect(BigInt(r.lease.token)).toBeGreaterThan(BigInt(model.token));
            Object.assign(model, { holder: s.holder, token: r.lease.token, live: true });
            fences.set(s.holder, { name, holder: s.holder, token: r.lease.token });
          } else if (s.kind === 'expire') {
            await t.direct.query('UPDATE leases SET expires_at = UTC_TIMESTAMP(6) - INTERVAL 1 SECOND WHERE name = ?', [name]);
            model.live = false;
          } else {
            const fence = fences.get(s.holder);
            if (!fence) continue;
            const key = `prop.${name.slice(5)}.${i}`;
            const allowed = model.live && model.holder === s.holder && model.token === fence.token;
            const outcome = await db.setClusterConfig(key, i, { fence }).then(
              () => 'written',
              (err: unknown) => (err instanceof Fenced ? 'fenced' : err),
            );
            expect(outcome, `step ${i}: write by ${s.holder} at token ${fence.token}`).toBe(allowed ? 'written' : 'fenced');
            expect(await t.count('cluster_config', 'config_key = ?', [key]), `step ${i}: row`).toBe(allowed ? 1 : 0);
            if (allowed) landedWrites += 1;
            else refusedWrites += 1;
          }
        }
      }),
      { numRuns: 100, seed: 20261204 },
    );
    // The interleavings exercised both answers.
    expect(landedWrites).toBeGreaterThan(0);
    expect(refusedWrites).toBeGreaterThan(0);
  }, 240_000);
});
