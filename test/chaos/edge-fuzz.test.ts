// The gRPC port against a fuzzer (bench/fuzz: hand-made gRPC calls over node:http2 and raw
// HTTP/2 frames, drawn by fast-check), at CI's size: 500 cases against a real replica
// process. Every call answered anything but INTERNAL or UNKNOWN; after every 100 cases the
// replica alive, another client answered, nothing left in flight, its RSS within 100 MB of
// the baseline after the first batch; at the end no connection left open (a connection
// nghttp2 gave up on is closed by the connection guard). A failure names the seed and
// fast-check path that replay it: SFDB_FUZZ_SEED / SFDB_FUZZ_PATH (or `npm run bench:fuzz
// -- --seed S --path P`). The long run is bench:fuzz (docs/BENCHMARKS.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessCluster } from '../../harness/cluster.js';
import { runFuzz } from '../../bench/fuzz/run.js';
import { testCluster } from '../helpers/process.js';

const SEED = Number(process.env['SFDB_FUZZ_SEED'] ?? 20_261_204);
const CASES = Number(process.env['SFDB_FUZZ_CASES'] ?? 500);
const PATH = process.env['SFDB_FUZZ_PATH'];

let cluster: ProcessCluster | undefined;

beforeAll(async () => {
  cluster = testCluster(['fuzzed']);
  await cluster.start();
});

afterAll(async () => {
  await cluster?.stop();
});

describe('the gRPC port under a frame-level fuzzer', () => {
  it(`${CASES} cases: no INTERNAL, the replica alive and serving others, memory and connections back`, { timeout: 240_000 }, async () => {
    const replica = cluster?.replica('fuzzed');
    const pid = replica?.pid;
    if (!replica || pid === undefined) throw new Error('no replica process');
    const report = await runFuzz(
      { address: replica.grpcAddress, httpPort: replica.httpPort, pid },
      { cases: CASES, seed: SEED, ...(PATH !== undefined ? { path: PATH } : {}), batch: 100, rssMarginMb: 100 },
    );
    console.log(`edge fuzz: seed ${SEED}, ${report.cases} cases in ${report.ms} ms; RSS MB ${JSON.stringify(report.rssMb)}; other client ${JSON.stringify(report.otherClient)}; ${JSON.stringify(report.outcomes)}`);
    expect(report.failure, report.failure).toBeUndefined();
    expect(report.internal).toBe(0);
    expect(report.cases).toBe(PATH !== undefined ? report.cases : CASES);
    // The cases reached the handlers and the transport's refusals alike, not one kind only.
    for (const outcome of ['OK', 'INVALID_ARGUMENT', 'UNIMPLEMENTED', 'rst 11']) expect(report.outcomes[outcome] ?? 0, outcome).toBeGreaterThan(0);
    expect(Object.keys(report.outcomes).filter((o) => o.startsWith('frames: ')).length).toBeGreaterThan(0);
  });
});
