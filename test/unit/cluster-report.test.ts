// The cluster benchmark's judgement and output: duty latencies and bounds, the window's
// figures with the benchmark's own statements taken off, Markdown, the docs section and
// the SVG chart.
import { describe, expect, it } from 'vitest';
import { loadChart, niceStep } from '../../bench/cluster/chart.js';
import { END, START, replaceParts } from '../../bench/cluster/docs.js';
import { evaluateNotices, evaluatePeriods, matchNotices, p99WithMisses, percentile, periodGaps } from '../../bench/cluster/duties.js';
import type { Injection, NoticedEvent } from '../../bench/cluster/duties.js';
import { injectionPlan, nextState } from '../../bench/cluster/inject.js';
import { zeroCounts } from '../../bench/cluster/measure.js';
import type { Scrape } from '../../bench/cluster/measure.js';
import { parseOptions, sweepShapes } from '../../bench/cluster/options.js';
import { metaLines } from '../../bench/cluster/docs.js';
import { parseSimConfig } from '../../bench/cluster/sim/config.js';
import { parseProm } from '../../ops/prom.js';
import { DEFAULT_PERIODS } from '../../bench/cluster/protocol.js';
import type { SimEvent } from '../../bench/cluster/protocol.js';
import { dutiesTable, fitModes, fitTable, historyRows, historyTable, modesTable, pairsTable, ratio, startTable } from '../../bench/cluster/report.js';
import { simInjections, simulatorCpu, simulatorStalls, summarizeMode, summarizeStart } from '../../bench/cluster/results.js';
import type { ClusterResult, ModeResult } from '../../bench/cluster/results.js';

const N1 = '11111111-1111-4111-8111-111111111111';
const N2 = '22222222-2222-4222-8222-222222222222';

describe('duties', () => {
  it('nearest-rank percentiles', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('matches each injection to the first later notice of its id, once; late or absent is a miss', () => {
    const inj = (id: string, at: number, error?: string): Injection => ({ duty: 'operator-stop', id, node: N1, daemon: 'queues', at, ...(error ? { error } : {}) });
    const seen = (id: string, at: number): NoticedEvent => ({ duty: 'operator-stop', id, node: N1, daemon: 'queues', at });
    const matched = matchNotices(
      [inj('a', 1000), inj('a', 20_000), inj('b', 5000), inj('c', 6000, 'UNAVAILABLE')],
      // 'a' twice (the same daemon stopped twice); 'b' noticed only after 10 s.
      [seen('a', 900), seen('a', 1500), seen('a', 21_000), seen('b', 15_001), seen('c', 6100)],
    );
    expect(matched.map((m) => [m.id, m.latencyMs])).toEqual([
      ['a', 500],
      ['b', undefined],
      ['c', undefined],
      ['a', 1000],
    ]);
  });

  it('holds a notice bound at NOTICE_BOUND_MS + one tick, not a millisecond more', () => {
    const at = (latencyMs: number | undefined): Parameters<typeof evaluateNotices>[0][number] => ({ duty: 'work-item', id: 'x', node: N1, daemon: 'queues', at: 0, latencyMs });
    const held = evaluateNotices([at(100), at(2250)]).find((d) => d.duty === 'work-item');
    expect(held).toMatchObject({ boundMs: 2250, samples: 2, p50Ms: 100, maxMs: 2250, misses: 0, held: true });
    expect(evaluateNotices([at(2251)]).find((d) => d.duty === 'work-item')?.held).toBe(false);
    const missed = evaluateNotices([at(100), at(undefined)]).find((d) => d.duty === 'work-item');
    expect(missed).toMatchObject({ misses: 1, held: false, samples: 1 });
    expect(missed?.worst).toContain('missed x');
    // A duty nothing exercised is neither held nor failed.
    expect(evaluateNotices([]).every((d) => d.held === undefined)).toBe(true);
  });

  it('holds a static update’s eviction at p99 ≤ 100 ms, a holder that never dropped it counting as infinite', () => {
    const evict = (latencyMs: number | undefined): Parameters<typeof evaluateNotices>[0][number] => ({ duty: 'static-evict', id: 'x', node: N1, daemon: 'transfers', at: 0, latencyMs });
    const fast = [...Array.from({ length: 99 }, () => evict(20)), evict(900)];
    // One slow drop in 100: the p99 is the 99th sample, 20 ms; the max does not decide.
    expect(evaluateNotices(fast).find((d) => d.duty === 'static-evict')).toMatchObject({ held: true, p99Ms: 20, maxMs: 900, samples: 100 });
    expect(evaluateNotices([...fast, evict(150)]).find((d) => d.duty === 'static-evict')?.held).toBe(false);
    const oneMiss = [...Array.from({ length: 99 }, () => evict(20)), evict(undefined)];
    expect(evaluateNotices(oneMiss).find((d) => d.duty === 'static-evict')).toMatchObject({ held: true, misses: 1 });
    expect(evaluateNotices([evict(20), evict(undefined)]).find((d) => d.duty === 'static-evict')?.held).toBe(false);
    expect(p99WithMisses([1, 2, 3], 1)).toBe(Infinity);
  });

  it('takes period gaps in the window, with the open ends that show a stalled duty', () => {
    // ready 0, window from 15 000, stop 40 000; events every 10 s.
    expect(periodGaps([5000, 15_000, 25_000, 35_000], 0, 15_000, 40_000)).toEqual({ closed: [10_000, 10_000, 10_000], open: [5000] });
    // Nothing since 12 000: the open end is 28 s.
    expect(periodGaps([2000, 12_000], 0, 15_000, 40_000)).toEqual({ closed: [], open: [28_000] });
    expect(periodGaps([], 0, 15_000, 40_000)).toEqual({ closed: [], open: [40_000] });
  });

  it('judges period duties per node, maintenance cluster-wide, within period + tolerance', () => {
    const p = (duty: 'node-heartbeat' | 'maintenance', node: string, at: number): { duty: typeof duty; node: string; at: number } => ({ duty, node, at });
    const events = [
      ...[0, 10_000, 20_000, 30_000, 40_000].map((t) => p('node-heartbeat', N1, t)),
      // N2's heartbeat stops after 20 s.
      ...[0, 10_500, 20_000].map((t) => p('node-heartbeat', N2, t)),
      // Maintenance moves from N1 to N2 (a new election) without a gap over 31 s.
      p('maintenance', N1, 0),
      p('maintenance', N2, 30_500),
    ];
    const duties = evaluatePeriods(events, { nodes: [N1, N2], nodesWithInstances: [N1], periods: DEFAULT_PERIODS, readyAt: 0, windowStart: 5000, stopAt: 45_000 });
    const hb = duties.find((d) => d.duty === 'node-heartbeat');
    expect(hb).toMatchObject({ boundMs: 11_000, held: false, misses: 1, maxMs: 10_500 });
    expect(hb?.worst).toBe(`${N2}: 25000 ms (open end)`);
    expect(duties.find((d) => d.duty === 'maintenance')).toMatchObject({ held: true, samples: 1, maxMs: 30_500 });
    // resources-instance (60 s) is expected on N1: not due yet at 45 s, so not missed — but not measured either.
    expect(duties.find((d) => d.duty === 'resources-instance')).toMatchObject({ held: true, samples: 0, misses: 0 });
    const later = evaluatePeriods([], { nodes: [N1], nodesWithInstances: [N1], periods: DEFAULT_PERIODS, readyAt: 0, windowStart: 5000, stopAt: 62_000 });
    expect(later.find((d) => d.duty === 'resources-instance')).toMatchObject({ held: false, misses: 1 });
  });
});

function scrape(at: number, questions: number, requests: string, cpu: number): Scrape {
  return {
    at,
    replicas: [parseProm(`${requests}\nprocess_cpu_seconds_total ${cpu}\ndatabase_queries_total{source="rpc"} ${questions}\n`)],
    status: { ...zeroCounts(), Questions: questions, Com_select: questions / 2 },
    mariadbCpuS: cpu / 2,
  };
}

function modeResult(mode: 'naive' | 'anchor', scale: number): ModeResult {
  const injections: Injection[] = [
    { duty: 'work-item', id: 'w1', node: N1, daemon: 'queues', at: 2000 },
    { duty: 'transfer', id: 't1', node: N1, daemon: 'transfers', at: 4000 },
  ];
  const events: SimEvent[] = [
    { event: 'ready', at: 0, daemons: 14 },
    { event: 'noticed', duty: 'work-item', node: N1, daemon: 'queues', id: 'w1', at: 2000 + 100 * scale },
    { event: 'noticed', duty: 'transfer', node: N1, daemon: 'transfers', id: 't1', at: 4000 + 100 * scale },
    { event: 'period', duty: 'node-heartbeat', node: N1, at: 5000 },
    { event: 'period', duty: 'resources-node', node: N1, at: 5000 },
    { event: 'cpu', at: 1000, userMs: 100, systemMs: 0 },
    { event: 'cpu', at: 11_000, userMs: 100 + 500 * scale, systemMs: 100 * scale },
  ];
  return summarizeMode({
    mode,
    replicaIds: ['bench-1'],
    start: scrape(1000, 1000, `database_requests_total{operation="GetNode",caller_daemon="queues"} 0`, 1),
    end: scrape(
      11_000,
      1000 + 100 * scale + 12,
      `database_requests_total{operation="GetNode",caller_daemon="queues"} ${80 * scale}\ndatabase_requests_total{operation="Enqueue",caller_daemon="bench"} 2`,
      1 + 0.5 * scale,
    ),
    simCpuStartS: 0,
    simCpuEndS: 0.6 * scale,
    events,
    injections,
    readyAt: 0,
    stopAt: 12_000,
    nodes: [N1],
    nodesWithInstances: [],
    periods: DEFAULT_PERIODS,
    // One SHOW costs one Question; an enqueue 5 statements, a transfer 5.
    showCost: { ...zeroCounts(), Questions: 1 },
    costs: { 'work-item': { counts: { ...zeroCounts(), Questions: 5 }, tierStatements: 5, clean: true }, transfer: { counts: { ...zeroCounts(), Questions: 6 }, tierStatements: 6, clean: true } },
  });
}

function clusterResult(nodes: number, history: number, results: ModeResult[]): ClusterResult {
  return {
    shape: { nodes, instances: 8, history },
    replicas: 2,
    modes: results.map((r) => r.mode),
    warmupS: 10,
    durationS: 10,
    injectEveryMs: 2000,
    startedAt: '2026-01-01T00:00:00Z',
    seedSeconds: 3,
    cluster: { nodes, instances: 8, networks: 2 },
    calibration: { showStatus: { ...zeroCounts(), Questions: 1 }, injections: {} },
    results,
    skipped: [],
  };
}

describe('a mode’s figures', () => {
  const naive = modeResult('naive', 10);
  const anchor = modeResult('anchor', 1);

  it('rates the daemons’ RPCs without the benchmark’s, and takes its own statements off MariaDB’s', () => {
    expect(naive.windowS).toBe(10);
    expect(naive.tier.rpcPerSecond).toBe(80);
    expect(naive.tier.pairs).toEqual([{ operation: 'GetNode', callerDaemon: 'queues', perSecond: 80 }]);
    expect(naive.tier.benchRpcPerSecond).toBe(0.2);
    // 1000 + 12 measured = 1 SHOW + 5 (enqueue) + 6 (transfer): the cluster's own is 100/s.
    expect(naive.mariadb.own.Questions).toBe(12);
    expect(naive.mariadb.measuredPerSecond.Questions).toBeCloseTo(101.2, 9);
    expect(naive.mariadb.perSecond.Questions).toBeCloseTo(100, 9);
    expect(naive.tier.cpuSecondsPerSecond).toBeCloseTo(0.5, 9);
    expect(naive.mariadb.cpuSecondsPerSecond).toBeCloseTo(0.25, 9);
    expect(naive.simulator.cpuSecondsPerSecond).toBeCloseTo(0.6, 9);
    expect(naive.simulator.procCpuSecondsPerSecond).toBeCloseTo(0.6, 9);
    expect(naive.injections['work-item']).toEqual({ sent: 1, failed: 0 });
    expect(naive.duties.find((d) => d.duty === 'work-item')).toMatchObject({ p50Ms: 1000, held: true });
    expect(naive.daemons).toBe(14);
  });

  it('takes the simulator’s own churn writes as due notices when they were sent in the window', () => {
    const ev: SimEvent[] = [
      { event: 'injected', duty: 'churn-state', node: N1, daemon: 'sidechannel', id: 'i:CREATED', at: 500 },
      { event: 'injected', duty: 'churn-state', node: N1, daemon: 'sidechannel', id: 'i:DELETING', at: 5000 },
      { event: 'injected', duty: 'static-evict', node: N2, daemon: 'transfers', id: 'BLOB:b#1@x', at: 6000, error: 'UNAVAILABLE' },
      { event: 'noticed', duty: 'churn-state', node: N1, daemon: 'sidechannel', id: 'i:DELETING', at: 5040 },
    ];
    const due = simInjections(ev, 1000, 10_000);
    expect(due.map((d) => d.id)).toEqual(['i:DELETING', 'BLOB:b#1@x']);
    expect(due[1]?.error).toBe('UNAVAILABLE');
    const matched = matchNotices(due, ev.flatMap((e) => (e.event === 'noticed' ? [e] : [])));
    expect(matched.map((m) => m.latencyMs)).toEqual([40, undefined]);
  });

  it('reads simulator CPU from its cumulative cpu events inside the window only', () => {
    const ev: SimEvent[] = [
      { event: 'cpu', at: 0, userMs: 0, systemMs: 0 },
      { event: 'cpu', at: 5000, userMs: 1000, systemMs: 0 },
      { event: 'cpu', at: 10_000, userMs: 2000, systemMs: 500 },
    ];
    expect(simulatorCpu(ev, 4000, 11_000)).toBeCloseTo(0.3, 9);
    expect(simulatorCpu(ev, 4000, 6000)).toBeNaN();
  });

  it('reads the simulator’s longest stalls from the cpu events that cover the window only', () => {
    const ev: SimEvent[] = [
      { event: 'cpu', at: 6000, userMs: 0, systemMs: 0, stallMs: 900 },
      { event: 'cpu', at: 11_000, userMs: 0, systemMs: 0, stallMs: 40 },
      { event: 'cpu', at: 16_000, userMs: 0, systemMs: 0, stallMs: 300 },
      { event: 'cpu', at: 21_000, userMs: 0, systemMs: 0, stallMs: 700 },
    ];
    // Window (5 s, 20 s]: the reports at 11 s and 16 s cover (6 s, 16 s]; the one at 6 s
    // covers mostly before it, the one at 21 s mostly after it.
    expect(simulatorStalls(ev, 5000, 20_000)).toEqual([40, 300]);
    expect(simulatorStalls(ev, 5000, 21_000)).toEqual([40, 300, 700]);
    expect(simulatorStalls([{ event: 'cpu', at: 11_000, userMs: 0, systemMs: 0 }], 5000, 20_000)).toEqual([]);
  });

  it('counts the start’s calls per pair and per daemon, its failures by code, without the benchmark’s', () => {
    const before = scrape(1000, 50, `database_requests_total{operation="GetNode",caller_daemon="queues"} 3`, 2);
    const ready = scrape(
      21_000,
      750,
      [
        `database_requests_total{operation="GetNode",caller_daemon="queues"} 31`,
        `database_requests_total{operation="SetNodeDaemonState",caller_daemon="queues"} 14`,
        `database_requests_total{operation="Enqueue",caller_daemon="bench"} 5`,
        `database_request_errors_total{operation="GetNode",code="RESOURCE_EXHAUSTED"} 2`,
      ].join('\n'),
      6,
    );
    const start = summarizeStart(before, ready);
    expect(start).toEqual({
      seconds: 20,
      calls: 42,
      pairs: [
        { operation: 'GetNode', callerDaemon: 'queues', calls: 28 },
        { operation: 'SetNodeDaemonState', callerDaemon: 'queues', calls: 14 },
      ],
      errors: [{ operation: 'GetNode', code: 'RESOURCE_EXHAUSTED', calls: 2 }],
      statements: 700,
      tierCpuS: 4,
      mariadbCpuS: 2,
    });
    const r = clusterResult(6, 1000, [{ ...naive, start }, anchor]);
    const table = startTable(r);
    expect(table.split('\n')[0]).toBe('| the start | naive |');
    expect(table).toContain('| tier RPCs (per daemon) | 42 (3.00) |');
    expect(table).toContain('| GetNode, queues | 28 (2.00) |');
    expect(table).toContain('Failed during the start (naive): GetNode RESOURCE_EXHAUSTED 2.');
    expect(startTable(clusterResult(6, 1000, [naive]))).toBe('');
  });

  it('prints the modes side by side with the first mode’s ratio to the others', () => {
    const r = clusterResult(6, 1000, [naive, anchor]);
    const table = modesTable(r);
    expect(table.split('\n')[0]).toBe('|  | naive | anchor | naive / anchor |');
    expect(table).toContain('| **tier RPCs/s** (simulated daemons) | 80.0 | 8.0 | 10× |');
    expect(table).toContain('| every duty within its bound | yes | yes |  |');
    expect(pairsTable(r)).toContain('| GetNode | queues | 80.00 | 8.00 | 10× |');
    expect(dutiesTable(r)).toContain('| work-item (notice) | 2,250 | 1,000 / 1,000 / 1,000 (n=1) ✓ | 100 / 100 / 100 (n=1) ✓ |');
    expect(ratio(3, 2)).toBe('1.5×');
    expect(ratio(0, 0)).toBe('1.0×');
    expect(ratio(1, 0)).toBe('∞');
  });

  it('fits each mode over a sweep and compares history', () => {
    const sweep = [2, 4, 6].map((n) => clusterResult(n, 1000, [modeResult('naive', n), modeResult('anchor', 1)]));
    const fits = fitModes(sweep, { nodes: 6, instances: 8, history: 1000 });
    expect(fits.find((f) => f.mode === 'naive')?.tier?.perNode).toBeCloseTo(8, 9);
    expect(fits.find((f) => f.mode === 'anchor')?.tier?.perNode).toBeCloseTo(0, 9);
    expect(fitTable(fits)).toContain('| naive | 0.00 + 8.00·nodes | 1.000 |');
    const history = historyRows([clusterResult(6, 1000, [naive]), clusterResult(6, 10_000, [modeResult('naive', 10.5)])], { nodes: 6, instances: 8, history: 1000 });
    expect(history[0]).toMatchObject({ mode: 'naive', histories: [1000, 10_000], within: true });
    expect(history[0]?.tierRise).toBeCloseTo(0.05, 9);
    expect(history[0]?.mariadbRise).toBeCloseTo(0.05, 9);
    expect(historyTable(history)).toContain('| naive | 80.0 | 84.0 | +5.0% | 100.0 | 105.0 | +5.0% | yes |');
    expect(historyRows([clusterResult(6, 1000, [naive]), clusterResult(6, 10_000, [modeResult('naive', 12)])], { nodes: 6, instances: 8, history: 1000 })[0]?.within).toBe(false);
  });

  it('draws load against nodes as an SVG, one line and a legend entry per mode', () => {
    const sweep = [2, 4, 6].map((n) => clusterResult(n, 1000, [modeResult('naive', n), modeResult('anchor', 1)]));
    const fits = fitModes(sweep, { nodes: 6, instances: 8, history: 1000 });
    const svg = loadChart(sweep, { nodes: 6, instances: 8, history: 1000 }, fits);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(4); // 2 panels × 2 modes
    expect(svg.match(/<circle /g)).toHaveLength(12);
    expect(svg.match(/stroke-dasharray/g)).toHaveLength(4);
    expect(svg).toContain('<title>naive: 6 → 48</title>');
    expect(niceStep(480)).toBe(100);
    expect(niceStep(7)).toBe(2);
  });
});

describe('options, plan and docs', () => {
  it('parses the issue’s command and sweeps in both forms', () => {
    const o = parseOptions(['--mode', 'naive,anchor', '--nodes', '6', '--replicas', '2', '--instances', '8', '--history', '1000', '--duration', '60']);
    expect(o.run).toMatchObject({ modes: ['naive', 'anchor'], nodes: 6, replicas: 2, instances: 8, history: 1000, durationS: 60, warmupS: 10, injectEveryMs: 2000 });
    const s = parseOptions(['--sweep', 'nodes=2,4,6', 'instances=0,8']);
    expect(s.sweeps).toEqual({ nodes: [2, 4, 6], instances: [0, 8] });
    expect(sweepShapes({ nodes: 6, instances: 8, history: 1000 }, s.sweeps)).toEqual([
      { nodes: 2, instances: 8, history: 1000 },
      { nodes: 4, instances: 8, history: 1000 },
      { nodes: 6, instances: 8, history: 1000 },
      { nodes: 6, instances: 0, history: 1000 },
    ]);
    expect(() => parseOptions(['--mode', 'fast'])).toThrow(/--mode: "fast"/);
  });

  it('runs the tier as built unless --tier source asks for tsx, and refuses anything else', () => {
    expect(parseOptions([]).tier).toBe('built');
    expect(parseOptions(['--tier', 'source']).tier).toBe('source');
    expect(parseOptions(['--tier', 'built']).tier).toBe('built');
    expect(() => parseOptions(['--tier', 'tsx'])).toThrow(/--tier: "tsx" is not built or source/);
    const meta = { command: 'npm run bench:cluster', date: new Date('2026-12-05T15:00:00Z'), machine: { nproc: 2, cpu: 'x', node: 'v20', mariadb: 'm' }, loadBefore: '1', loadAfter: '1', files: [], simulator: 's.ts' };
    expect(metaLines({ ...meta, tier: 'built' })[1]).toBe('- Date: 2026-12-05T15:00:00Z; simulator: `s.ts`; tier: `node dist/server/main.js` (the build `npm start` runs)');
    expect(metaLines({ ...meta, tier: 'source' })[1]).toBe('- Date: 2026-12-05T15:00:00Z; simulator: `s.ts`; tier: `server/main.ts` under tsx');
  });

  it('parses the churn flags and a churn sweep, run at the base nodes and at the largest swept node count', () => {
    const o = parseOptions(['--churn-instances', '1', '--churn-static', '0.5', '--churn-lifetime', '30']);
    expect(o.run).toMatchObject({ churnInstances: 1, churnStatic: 0.5, churnLifetimeS: 30 });
    expect(parseOptions([]).run).toMatchObject({ churnInstances: 0, churnStatic: 0, churnLifetimeS: 60 });
    expect(() => parseOptions(['--churn-instances', '-1'])).toThrow(/--churn-instances/);
    const s = parseOptions(['--sweep', 'nodes=2,6', 'churn=0,0.5,2']);
    expect(s.sweeps).toEqual({ nodes: [2, 6], churn: [0, 0.5, 2] });
    expect(sweepShapes({ nodes: 4, instances: 8, history: 100 }, s.sweeps)).toEqual([
      { nodes: 2, instances: 8, history: 100 },
      { nodes: 6, instances: 8, history: 100 },
      { nodes: 4, instances: 8, history: 100 },
      { nodes: 4, instances: 8, history: 100, churnInstances: 0.25, churnStatic: 0.25 },
      { nodes: 6, instances: 8, history: 100, churnInstances: 0.25, churnStatic: 0.25 },
      { nodes: 4, instances: 8, history: 100, churnInstances: 1, churnStatic: 1 },
      { nodes: 6, instances: 8, history: 100, churnInstances: 1, churnStatic: 1 },
    ]);
    expect(() => parseOptions(['--sweep', 'racks=1'])).toThrow(/--sweep/);
  });

  it('reads the simulator’s churn and planted defect from its config, refusing bad values', () => {
    const u = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const base = { mode: 'feed', targets: ['127.0.0.1:1'], nodes: [{ uuid: u(1), fqdn: 'a' }], instances: [], networks: [{ uuid: u(2), ipamUuid: u(3) }] };
    const churn = { instancesPerS: 0.5, staticPerS: 1, lifetimeMs: 20_000 };
    expect(parseSimConfig({ ...base, churn, plant: 'wake-everyone' })).toMatchObject({ churn, plant: 'wake-everyone' });
    expect(parseSimConfig(base)).not.toHaveProperty('churn');
    expect(() => parseSimConfig({ ...base, churn: { ...churn, staticPerS: -1 } })).toThrow(/churn.staticPerS/);
    expect(() => parseSimConfig({ ...base, churn: { ...churn, lifetimeMs: 10 } })).toThrow(/churn.lifetimeMs/);
    expect(() => parseSimConfig({ ...base, networks: [], churn })).toThrow(/need a network/);
    expect(() => parseSimConfig({ ...base, plant: 'sleep' })).toThrow(/plant: one of per-node-poll, wake-everyone/);
  });

  it('plans the same injections every time, rotating kinds, nodes and daemons', () => {
    const cluster = { nodes: [{ uuid: N1, fqdn: 'a' }, { uuid: N2, fqdn: 'b' }], instances: [{ uuid: 'i1', nodeUuid: N2, networkUuid: 'n', interfaceUuid: 'f' }] };
    const plan = injectionPlan(8, cluster);
    expect(plan).toEqual(injectionPlan(8, cluster));
    expect(plan.map((p) => `${p?.duty}:${p?.daemon}`)).toEqual([
      'operator-stop:queues', 'work-item:queues', 'transfer:transfers', 'instance-state:sidechannel',
      'operator-stop:net', 'work-item:net', 'transfer:transfers', 'instance-state:sidechannel',
    ]);
    expect(plan[0]?.node).toBe(N1);
    expect(plan[1]?.node).toBe(N2);
    expect(injectionPlan(4, { nodes: cluster.nodes, instances: [] })[3]).toBeUndefined();
    expect(nextState('CREATED')).toBe('CREATING');
    expect(nextState('CREATING')).toBe('CREATED');
  });

  it('rewrites only its own part of BENCHMARKS.md, keeping the other sections', () => {
    const other = '# Benchmarks\n\n<!-- bench:rpc:start -->\nrpc figures\n<!-- bench:rpc:end -->\n';
    const first = replaceParts(other, { modes: 'modes v1' });
    expect(first.startsWith(other.trimEnd())).toBe(true);
    expect(first).toContain(START);
    expect(first).toContain('modes v1');
    expect(first).toContain('### Sweep: load against nodes and instances\n\nNot run yet.');
    const second = replaceParts(`${first}\ntrailing text of someone else\n`, { sweep: 'sweep v1' });
    expect(second).toContain('modes v1');
    expect(second).toContain('sweep v1');
    expect(second).not.toContain('load against nodes and instances\n\nNot run yet.');
    expect(second).toContain('<!-- bench:rpc:start -->\nrpc figures\n<!-- bench:rpc:end -->');
    expect(second.endsWith('trailing text of someone else\n')).toBe(true);
    expect(second.indexOf(END)).toBeGreaterThan(second.indexOf('sweep v1'));
  });
});
