// The fuzzer's run against one real replica process: fast-check draws the cases
// (cases.ts), each is sent (calls on the fuzzer's own connection, raw frames on sockets of
// their own) and every outcome counted. A call answered INTERNAL or UNKNOWN fails the case
// at once. After every batch of cases, and at the end:
//   - the replica's process is alive;
//   - another client, on a connection of its own, is answered (GetNode, OK) in time;
//   - no call is left in flight (database_requests_in_flight back to 0);
//   - the replica's RSS (/proc/<pid>/status) is back within a margin of its baseline,
//     re-read for a while first, since a collection may not have run yet;
//   - after the last batch, no connection is left open past the fuzzer's and the other
//     client's (database_grpc_connections).
// A failure ends the run and says the seed and fast-check's path of the case it came at,
// so that `--seed S --path P` replays it.
import { existsSync, readFileSync } from 'node:fs';
import type * as http2 from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import fc from 'fast-check';
import { metricSum, scrape } from '../../harness/scrape.js';
import { caseGen } from './cases.js';
import type { FuzzCase } from './cases.js';
import { sendFrames } from './frames.js';
import { connect, goawayOf, h2Call, pathOf, requestBytes, settled } from './h2.js';

export interface FuzzTarget {
  /** host:port of its gRPC port. */
  address: string;
  httpPort: number;
  pid: number;
}

export interface FuzzOptions {
  cases: number;
  seed: number;
  /** fast-check's path of one case to replay (with its seed). */
  path?: string;
  /** Cases between two checks of the replica. */
  batch: number;
  /** How far over its baseline the replica's RSS may be after a batch (MB). */
  rssMarginMb: number;
  say?: (line: string) => void;
}

export interface FuzzReport {
  seed: number;
  /** Cases sent. */
  cases: number;
  /** Calls and raw exchanges, by what came back. */
  outcomes: Record<string, number>;
  /** Per gRPC status, the first grpc-message seen (cut to 160 characters), its call's path, and the longest one's length. */
  messages: Record<string, { first: string; path: string; longest: number }>;
  internal: number;
  /** The replica's RSS in MB: after the warm-up batch (the baseline), at the end, the most seen. */
  rssMb: { start: number; end: number; max: number };
  /** The other client's GetNode, once per batch: how many, the slowest (ms). */
  otherClient: { calls: number; maxMs: number };
  /** What failed (with the seed and path that replay it), if anything did. */
  failure?: string;
  ms: number;
}

/** The replica's resident set in MB, or undefined when it has no process any more. */
export function rssMb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    if (/^State:\s+Z/m.test(status)) return undefined;
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits (bounded) until `read` satisfies `ok`; answers the last value read. */
async function settle<T>(read: () => Promise<T> | T, ok: (v: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await sleep(100);
    v = await read();
  }
  return v;
}

class CaseFailure extends Error {}

/** A grpc-message as sent (percent-encoded), as text; as it came when it does not decode. */
function decoded(message: string): string {
  try {
    return decodeURIComponent(message);
  } catch {
    return message;
  }
}

/** A case as a failure message shows it: JSON, long strings and byte arrays cut. */
export function describeCase(c: FuzzCase): string {
  return JSON.stringify(c, (_k, v: unknown) => {
    if (typeof v === 'string' && v.length > 80) return `${v.slice(0, 40)}…(${v.length} chars)`;
    if (v !== null && typeof v === 'object' && (v as { type?: unknown }).type === 'Buffer') {
      const data = (v as { data: number[] }).data;
      return `hex:${Buffer.from(data.slice(0, 64)).toString('hex')}${data.length > 64 ? `…(${data.length} bytes)` : ''}`;
    }
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 12) {
      return { ...Object.fromEntries(Object.entries(v).slice(0, 12)), '…': `${Object.keys(v).length} keys` };
    }
    return v;
  });
}

export async function runFuzz(target: FuzzTarget, opts: FuzzOptions): Promise<FuzzReport> {
  const say = opts.say ?? (() => undefined);
  const started = performance.now();
  const colon = target.address.lastIndexOf(':');
  const host = target.address.slice(0, colon).replace(/^\[|\]$/g, '') || '127.0.0.1';
  const port = Number(target.address.slice(colon + 1));
  const outcomes: Record<string, number> = {};
  const count = (o: string): void => void (outcomes[o] = (outcomes[o] ?? 0) + 1);
  const other = new grpc.Client(target.address, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1, 'grpc.enable_retries': 0 });
  const report: FuzzReport = { seed: opts.seed, cases: 0, outcomes, messages: {}, internal: 0, rssMb: { start: 0, end: 0, max: 0 }, otherClient: { calls: 0, maxMs: 0 }, ms: 0 };
  let session: http2.ClientHttp2Session | undefined;
  let baseline: number | undefined;
  let current: FuzzCase | undefined;

  const live = async (): Promise<http2.ClientHttp2Session> => {
    if (session && !session.closed && !session.destroyed && goawayOf(session) === undefined) return session;
    session?.destroy();
    session = connect(target.address);
    await settled(session);
    return session;
  };

  const otherCall = (): Promise<{ ok: boolean; ms: number; what: string }> =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const md = new grpc.Metadata();
      md.set('x-sfdb-caller-daemon', 'fuzz-other');
      other.makeUnaryRequest(pathOf('GetNode'), (b: Buffer) => b, (b: Buffer) => b, requestBytes('GetNode', { uuid: '00000000-0000-4000-8000-00000000f022' }), md, { deadline: Date.now() + 5_000 }, (err) =>
        resolve({ ok: !err, ms: Math.round(performance.now() - t0), what: err ? `${grpc.status[err.code]} ${err.details}` : 'OK' }),
      );
    });

  /**
   * The checks: `before` the first case (alive and answering), after each `batch` (the
   * first sets the RSS baseline: the heap warmed up), and the `final` one (the connections
   * too); throws what failed.
   */
  const check = async (look: 'before' | 'batch' | 'final'): Promise<void> => {
    if (!existsSync(`/proc/${target.pid}`) || rssMb(target.pid) === undefined) throw new CaseFailure('the replica process is gone');
    const answer = await otherCall();
    report.otherClient.calls += 1;
    report.otherClient.maxMs = Math.max(report.otherClient.maxMs, answer.ms);
    if (!answer.ok) throw new CaseFailure(`another client's GetNode answered ${answer.what}`);
    const inFlight = await settle(async () => metricSum(await scrape(target.httpPort), 'database_requests_in_flight'), (n) => n === 0, 10_000);
    if (inFlight !== 0) throw new CaseFailure(`${inFlight} calls still in flight 10 s after the batch`);
    if (look === 'final') {
      // The fuzzer's connection and the other client's: one the HTTP/2 layer gave up on is
      // closed by the connection guard (server/grpc/connections.ts) within its idle bound
      // and ping timeout (10 s each).
      const open = await settle(async () => metricSum(await scrape(target.httpPort), 'database_grpc_connections'), (n) => n <= 2, 30_000);
      if (open > 2) throw new CaseFailure(`${open} connections open 30 s after the last case (2 expected: the fuzzer's and the other client's)`);
    }
    if (look === 'before') return;
    const rss = rssMb(target.pid) ?? 0;
    report.rssMb.max = Math.max(report.rssMb.max, rss);
    if (baseline === undefined) {
      baseline = rss;
      report.rssMb.start = rss;
      return;
    }
    const limit = baseline + opts.rssMarginMb;
    const after = await settle(() => rssMb(target.pid) ?? 0, (mb) => mb <= limit, 15_000);
    if (after > limit) throw new CaseFailure(`the replica's RSS is ${after} MB, over its baseline ${baseline} MB + ${opts.rssMarginMb} MB`);
  };

  const runCase = async (c: FuzzCase): Promise<void> => {
    if (c.kind === 'frames') {
      const r = await sendFrames(host, port, c.frames, 100);
      count(`frames: ${r.outcome}`);
      return;
    }
    const s = await live();
    const results = await Promise.all(
      c.calls.map((call) => h2Call(s, { path: call.path, headers: call.headers, body: call.body, end: call.end, timeoutMs: call.cancel ? 1 : call.end ? 3_000 : 150 })),
    );
    results.forEach((r, i) => {
      const call = c.calls[i];
      const outcome = r.outcome === 'no answer' ? (call?.cancel ? 'cancelled by the client' : call?.end ? 'no answer in 3 s (cancelled)' : 'left open 150 ms (cancelled)') : r.outcome;
      count(outcome);
      if (r.message !== undefined) {
        const text = decoded(r.message);
        const seen = (report.messages[outcome] ??= { first: text.slice(0, 160), path: call?.path ?? '?', longest: 0 });
        seen.longest = Math.max(seen.longest, text.length);
      }
      if (outcome === 'INTERNAL' || outcome === 'UNKNOWN') {
        report.internal += 1;
        throw new CaseFailure(`${call?.path ?? '?'} answered ${outcome}: ${decoded(r.message ?? '').slice(0, 300)}`);
      }
    });
  };

  try {
    await check('before');
    let n = 0;
    const property = fc.asyncProperty(caseGen, async (c) => {
      current = c;
      n += 1;
      report.cases = n;
      await runCase(c);
      if (n % opts.batch === 0) {
        await check('batch');
        say(`${n} cases: ${JSON.stringify(outcomes)}; RSS ${rssMb(target.pid)} MB`);
      }
    });
    await fc.assert(property, { seed: opts.seed, numRuns: opts.cases, endOnFailure: true, ...(opts.path !== undefined ? { path: opts.path } : {}) });
    current = undefined;
    await check('final');
  } catch (err) {
    // fast-check's message names the seed and path; its cause is what the case or check threw.
    const replay = /\{ seed: (-?\d+), path: "([^"]*)"/.exec((err as Error).message);
    const cause = (err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message;
    report.failure = `${cause}; at case ${report.cases} (replay: --seed ${replay?.[1] ?? opts.seed} --path ${replay?.[2] ?? '?'}): ${current ? describeCase(current) : 'before the first case'}`;
  } finally {
    session?.destroy();
    other.close();
  }
  report.rssMb.end = rssMb(target.pid) ?? 0;
  report.ms = Math.round(performance.now() - started);
  return report;
}
