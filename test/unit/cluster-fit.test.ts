// The cluster benchmark's arithmetic: the least-squares load model and the rates taken
// from two scrapes of the tier's /metrics.
import { describe, expect, it } from 'vitest';
import { fitLoad, formatFit, leastSquares, solve } from '../../bench/cluster/fit.js';
import { counterDelta, increase, pairRates, parseProm, sumBy } from '../../ops/prom.js';

describe('least squares', () => {
  it('solves a square system, pivoting past a zero', () => {
    expect(solve([[0, 1], [2, 0]], [3, 4])).toEqual([2, 3]);
    expect(() => solve([[1, 2], [2, 4]], [1, 2])).toThrow(/singular/);
  });

  it('recovers base + a·nodes + b·instances exactly from points on the plane', () => {
    // rate = 5 + 12·nodes + 0.5·instances, nodes swept at 8 instances, instances at 6 nodes.
    const points = [
      ...[2, 4, 6, 8, 12].map((nodes) => ({ nodes, instances: 8 })),
      ...[0, 32, 64].map((instances) => ({ nodes: 6, instances })),
    ].map((p) => ({ ...p, rate: 5 + 12 * p.nodes + 0.5 * p.instances }));
    const fit = fitLoad(points);
    expect(fit.base).toBeCloseTo(5, 9);
    expect(fit.perNode).toBeCloseTo(12, 9);
    expect(fit.perInstance).toBeCloseTo(0.5, 9);
    expect(fit.r2).toBeCloseTo(1, 12);
    expect(fit.n).toBe(8);
    expect(formatFit(fit)).toBe('5.00 + 12.00·nodes + 0.50·instances');
  });

  it('recovers c·churn and d·nodes·churn with base, a and b from a sweep that has churn at two node counts', () => {
    // rate = 3 + 2·nodes + 0.25·instances + 7·churn + 0.5·nodes·churn; the sweep's shapes:
    // nodes at 8 instances, instances at 6 nodes, churn at 6 and at 12 nodes (quiet elsewhere).
    const truth = (p: { nodes: number; instances: number; churn: number }): number => 3 + 2 * p.nodes + 0.25 * p.instances + 7 * p.churn + 0.5 * p.nodes * p.churn;
    const points = [
      ...[2, 4, 6, 8, 12].map((nodes) => ({ nodes, instances: 8, churn: 0 })),
      ...[0, 32, 64].map((instances) => ({ nodes: 6, instances, churn: 0 })),
      ...[0.5, 1, 2].flatMap((churn) => [6, 12].map((nodes) => ({ nodes, instances: 8, churn }))),
    ].map((p) => ({ ...p, rate: truth(p) }));
    const fit = fitLoad(points);
    expect(fit.base).toBeCloseTo(3, 9);
    expect(fit.perNode).toBeCloseTo(2, 9);
    expect(fit.perInstance).toBeCloseTo(0.25, 9);
    expect(fit.perChurn).toBeCloseTo(7, 9);
    expect(fit.perNodeChurn).toBeCloseTo(0.5, 9);
    expect(fit.r2).toBeCloseTo(1, 12);
    expect(formatFit(fit)).toBe('3.00 + 2.00·nodes + 0.25·instances + 7.00·churn + 0.50·nodes·churn');
  });

  it('leaves d·nodes·churn out when every churned point has the same node count (it would be c again)', () => {
    const points = [
      ...[2, 4, 6].map((nodes) => ({ nodes, instances: 8, churn: 0 })),
      ...[1, 2].map((churn) => ({ nodes: 6, instances: 8, churn })),
    ].map((p) => ({ ...p, rate: 1 + 4 * p.nodes + 9 * p.churn }));
    const fit = fitLoad(points);
    expect(fit.perNodeChurn).toBeUndefined();
    expect(fit.perChurn).toBeCloseTo(9, 9);
    expect(fit.perNode).toBeCloseTo(4, 9);
    // A quiet sweep has no churn term at all.
    expect(fitLoad([2, 4].map((nodes) => ({ nodes, instances: 0, rate: nodes }))).perChurn).toBeUndefined();
  });

  it('gives the ordinary least-squares line and R² for noisy points', () => {
    // y = x + noise: x 1..4, y 1, 3, 2, 4 → slope 0.8, intercept 0.5; SSres 1.8, SStot 5.
    const fit = fitLoad([1, 2, 3, 4].map((nodes, i) => ({ nodes, instances: 0, rate: [1, 3, 2, 4][i] as number })));
    expect(fit.perNode).toBeCloseTo(0.8, 12);
    expect(fit.base).toBeCloseTo(0.5, 12);
    expect(fit.r2).toBeCloseTo(1 - 1.8 / 5, 12);
    expect(fit.residuals.reduce((s, r) => s + r, 0)).toBeCloseTo(0, 12);
  });

  it('leaves a dimension the points hold constant out of the model', () => {
    const fit = fitLoad([2, 4, 6].map((nodes) => ({ nodes, instances: 8, rate: 10 + 3 * nodes })));
    expect(fit.perInstance).toBeUndefined();
    expect(fit.perNode).toBeCloseTo(3, 9);
    expect(fit.base).toBeCloseTo(10, 9);
    expect(formatFit(fit, 1)).toBe('10.0 + 3.0·nodes');
    const flat = fitLoad([{ nodes: 6, instances: 8, rate: 7 }, { nodes: 6, instances: 8, rate: 7 }]);
    expect(flat).toMatchObject({ base: 7, perNode: undefined, perInstance: undefined, r2: 1 });
  });

  it('refuses too few points for the parameters', () => {
    expect(() => leastSquares([[1, 2]], [3])).toThrow(/1 points cannot fit 3 parameters/);
    expect(() => fitLoad([])).toThrow(/no points/);
  });
});

const SCRAPE_1 = `# HELP database_requests_total RPCs received
# TYPE database_requests_total counter
database_requests_total{operation="GetNode",caller_daemon="queues"} 100
database_requests_total{operation="GetNode",caller_daemon="net"} 50
database_requests_total{operation="Enqueue",caller_daemon="bench"} 3
database_queries_total{source="rpc"} 400
process_cpu_seconds_total 1.5
`;
const SCRAPE_2 = `database_requests_total{operation="GetNode",caller_daemon="queues"} 160
database_requests_total{operation="GetNode",caller_daemon="net"} 50
database_requests_total{operation="Enqueue",caller_daemon="bench"} 5
database_requests_total{operation="Dequeue",caller_daemon="queues"} 20
database_queries_total{source="rpc"} 520
process_cpu_seconds_total 2.25
`;

describe('rates from two scrapes', () => {
  it('parses samples with their labels, skipping comments', () => {
    const s = parseProm(`# TYPE x counter\nx{a="1",b="q\\"x"} 3\ny 4.5 1700000000\nz{le="+Inf"} +Inf\n`);
    expect(s).toEqual([
      { name: 'x', labels: { a: '1', b: 'q"x' }, value: 3 },
      { name: 'y', labels: {}, value: 4.5 },
      { name: 'z', labels: { le: '+Inf' }, value: Infinity },
    ]);
  });

  it('takes counter increases key by key: new keys from 0, a restarted counter from its new value', () => {
    const before = new Map([['a', 10], ['b', 5]]);
    const after = new Map([['a', 16], ['b', 2], ['c', 4]]);
    expect(Object.fromEntries(counterDelta(before, after))).toEqual({ a: 6, b: 2, c: 4 });
    expect(increase(1.5, 2.25)).toBe(0.75);
    expect(increase(9, 1)).toBe(1);
  });

  it('rates every (operation, caller) pair over the window, summed over replicas, highest first', () => {
    const one = parseProm(SCRAPE_1);
    const two = parseProm(SCRAPE_2);
    // Replica B saw only queues' GetNode calls: 10 → 40.
    const b1 = parseProm('database_requests_total{operation="GetNode",caller_daemon="queues"} 10\n');
    const b2 = parseProm('database_requests_total{operation="GetNode",caller_daemon="queues"} 40\n');
    const rates = pairRates([one, b1], [two, b2], 10);
    expect(rates).toEqual([
      { operation: 'GetNode', callerDaemon: 'queues', perSecond: 9 },
      { operation: 'Dequeue', callerDaemon: 'queues', perSecond: 2 },
      { operation: 'Enqueue', callerDaemon: 'bench', perSecond: 0.2 },
    ]);
    expect(Object.fromEntries(sumBy(two, 'database_queries_total', ['source']))).toEqual({ rpc: 520 });
  });
});
