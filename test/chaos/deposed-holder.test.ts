// The fault ledger's deposed holder (bench/faults/deposed-holder.ts) at a short shape: a
// process writing under its lease's fence is SIGSTOPped past its lease (1 s), this
// process takes the lease meanwhile, and the holder, resumed, goes on writing with its old
// fence. Every write it sends after the resume must be refused Fenced, and MariaDB must
// hold none of them (read directly), while every write it had acknowledged is there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configKeysIn, deposedProblems, runDeposedHolder } from '../../bench/faults/deposed-holder.js';
import type { DeposedHolderResult } from '../../bench/faults/deposed-holder.js';
import { recordFigure } from '../helpers/figures.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let t: TestTier;
let result: DeposedHolderResult;
const log: string[] = [];

beforeAll(async () => {
  t = await startTestTier();
  result = await runDeposedHolder({
    target: `127.0.0.1:${t.tier.grpcPort}`,
    rival: t.client(),
    landed: configKeysIn(t.direct),
    ttlMs: 1000,
    writesAfterResume: 20,
    waitMs: 20_000,
    log: (m) => log.push(m),
  });
  recordFigure('deposed-holder', { ...result, refusedButLanded: result.refusedButLanded.length, writtenButMissing: result.writtenButMissing.length });
}, 90_000);
afterAll(async () => {
  await t.stop();
});

describe('chaos: a deposed holder', () => {
  it('was paused past its lease and taken over, with writes acknowledged before and sent after', () => {
    expect(BigInt(result.rivalToken)).toBeGreaterThan(BigInt(result.holderToken));
    expect(result.writtenBeforePause).toBeGreaterThanOrEqual(3);
    expect(result.sentAfterResume).toBeGreaterThanOrEqual(20);
  });

  it('has every write after the resume refused Fenced, none landed, and every acknowledged one in MariaDB', () => {
    expect(result.writtenAfterResume, log.join('\n')).toBe(0);
    expect(result.fencedAfterResume).toBe(result.sentAfterResume);
    expect(result.refusedButLanded).toEqual([]);
    expect(result.writtenButMissing).toEqual([]);
    expect(deposedProblems(result)).toEqual([]);
  });
});
