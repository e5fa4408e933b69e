// The operator-stop chaos run (bench/stops, `npm run bench:stops` for the full matrix) at a
// short shape for CI: two real replicas behind TCP proxies on the suite's MariaDB, two
// separate daemon processes, and one round of each fault of one replica F — frozen young
// (1 s after a restart with a fresh id), blackholed, frozen with the daemons placed on F
// alone (their polls parted from their watches when the other came back), SIGKILLed, and
// restarting — with an operator stop written through the live replica. Every stop is
// heard, within the 2 s duty plus what a loaded 2-core machine adds, and STOPPED recorded.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { StopRounds } from '../../bench/stops/rounds.js';
import type { Arrangement } from '../../bench/stops/rounds.js';
import { Children } from '../../harness/children.js';
import { ProcessCluster } from '../../harness/cluster.js';
import { recordFigure } from '../helpers/figures.js';
import { testDatabaseName } from '../helpers/tier.js';

/** The duty: an operator stop heard within 2 s of its write. */
const DUTY_MS = 2_000;
/** What a loaded 2-core machine (the suite's other file, MariaDB, two replicas, two daemons) adds; BENCHMARKS gives the figures of a run alone. */
const SLACK_MS = 2_000;

const children = new Children();
const cluster = new ProcessCluster({
  server: { url: `mysql://root@127.0.0.1:${inject('mariadbPort')}` },
  database: testDatabaseName(),
  replicas: [{ name: 'a' }, { name: 'b' }],
  idFor: (name, n) => `stops-${process.pid}-${name}-${n}`,
  env: { SFDB_DRAIN_GRACE_MS: '1000' },
  proxies: true,
  children,
  ownSession: false,
});
const rounds = new StopRounds({ cluster, children, hosts: 2, afterMs: 3000, youngMs: 1000, oldMs: 0, lostMs: 20_000, say: () => {} });

beforeAll(async () => {
  await cluster.start();
  await rounds.start();
}, 120_000);

afterAll(async () => {
  await rounds.stop();
  await cluster.stop();
  await children.stopAll(5000);
}, 120_000);

const ROUNDS: [Arrangement, string][] = [
  [{ fault: 'freeze', age: 'young', when: 'at', placed: 'anywhere' }, 'a'],
  [{ fault: 'blackhole', age: 'old', when: 'at', placed: 'anywhere' }, 'b'],
  [{ fault: 'freeze', age: 'old', when: 'at', placed: 'both-on-f' }, 'a'],
  [{ fault: 'kill', age: 'old', when: 'at', placed: 'anywhere' }, 'b'],
  [{ fault: 'restart', age: 'old', when: 'at', placed: 'anywhere' }, 'a'],
];

it.each(ROUNDS)('an operator stop is heard with %o (F: %s), and STOPPED recorded', async (arrangement, f) => {
  const records = await rounds.run(arrangement, f);
  recordFigure(`operator-stop-${arrangement.fault}-${arrangement.age}-${arrangement.placed}`, { heardMs: records.map((r) => r.heardMs ?? 'lost').join(' ') });
  for (const r of records) {
    expect(r.heardMs, JSON.stringify(r)).toBeDefined();
    expect(r.heardMs as number, JSON.stringify(r)).toBeLessThanOrEqual(DUTY_MS + SLACK_MS);
    expect(r.stoppedRecorded, JSON.stringify(r)).toBe(true);
  }
}, 120_000);
