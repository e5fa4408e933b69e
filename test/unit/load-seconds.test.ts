// MariaDB seconds beside call rates in the load tools: sf-ctl load's measurement and table
// (ops/ctl/load-report.ts) and the admin Load page's arithmetic and page
// (server/admin/load.ts, load-page.ts), each fed fake scrapes. The budget's seconds
// ceilings themselves: test/unit/budget.test.ts.
import { describe, expect, it } from 'vitest';
import { costLine, judgeLoad, loadExitCode, loadTable, measurePairs } from '../../ops/ctl/load-report.js';
import { parseProm } from '../../ops/prom.js';
import { POOL_WAIT_COUNTER, QUERY_SECONDS_COUNTER, statusText } from '../../proto/runtime/budget.js';
import { formatShare } from '../../proto/runtime/format.js';
import { judgeWindow, ratesBetween, readExposition } from '../../server/admin/load.js';
import type { LoadReport, ReplicaSample } from '../../server/admin/load.js';
import { loadMain } from '../../server/admin/load-page.js';
import { METRIC_NAMES } from '../../server/metric-catalog.js';
import { SECONDS_BUDGET } from '../helpers/budget.js';

const pair = (metric: string, op: string, caller: string, v: number): string => `${metric}{operation="${op}",caller_daemon="${caller}"} ${v}`;
const req = (op: string, caller: string, v: number): string => pair('database_requests_total', op, caller, v);
const sec = (op: string, caller: string, v: number): string => pair('database_request_query_seconds_total', op, caller, v);
const wait = (op: string, caller: string, v: number): string => pair('database_request_pool_wait_seconds_total', op, caller, v);
const prom = (lines: string[]): ReturnType<typeof parseProm> => parseProm(lines.join('\n'));

const budget = SECONDS_BUDGET;
const shape = { nodes: 4, instances: 0 };

describe('sf-ctl load: MariaDB seconds beside the rates', () => {
  // Two replicas, 10 s each. GetNode/cleaner: many cheap calls; ListObjects/cleaner: few expensive ones; the tier's own feed tail.
  const windows = [
    {
      before: prom([req('GetNode', 'cleaner', 0), req('ListObjects', 'cleaner', 0), sec('GetNode', 'cleaner', 0), sec('ListObjects', 'cleaner', 0), sec('changefeed', 'sf-database', 1)]),
      after: prom([req('GetNode', 'cleaner', 100), req('ListObjects', 'cleaner', 2), sec('GetNode', 'cleaner', 0.1), sec('ListObjects', 'cleaner', 1.5), sec('changefeed', 'sf-database', 1.4), wait('ListObjects', 'cleaner', 0.2)]),
      seconds: 10,
    },
    { before: prom([req('WaitForChanges', 'cleaner', 0)]), after: prom([req('WaitForChanges', 'cleaner', 50)]), seconds: 10 },
  ];

  it('ranks the costliest pair first, with its share of all seconds, the tier’s own included; no statement: by rate after', () => {
    const rows = measurePairs(windows);
    expect(rows.map((r) => `${r.operation}/${r.caller_daemon}`)).toEqual(['ListObjects/cleaner', 'changefeed/sf-database', 'GetNode/cleaner', 'WaitForChanges/cleaner']);
    const [list, feed, get, waits] = rows;
    expect(list).toMatchObject({ rate: 0.2, calls: 2 });
    expect(list?.seconds).toBeCloseTo(0.15, 12);
    expect(list?.share).toBeCloseTo(0.75, 12); // 1.5 of 2.0 s
    expect(list?.poolWait).toBeCloseTo(0.02, 12);
    expect(feed).toMatchObject({ rate: 0, calls: 0 });
    expect(feed?.share).toBeCloseTo(0.2, 12);
    expect(get?.poolWait).toBe(0);
    expect(waits).toMatchObject({ rate: 5, seconds: 0, share: 0 });
    expect(costLine(rows)).toBe('MariaDB seconds/s 0.200; pool wait seconds/s 0.0200');
  });

  it('without the seconds counters (an older replica) ranks by rate and says seconds are unknown', () => {
    const rows = measurePairs([{ before: prom([req('A', 'x', 0), req('B', 'x', 0)]), after: prom([req('A', 'x', 10), req('B', 'x', 30)]), seconds: 10 }]);
    expect(rows.map((r) => [r.operation, r.seconds, r.share, r.poolWait])).toEqual([
      ['B', null, null, null],
      ['A', null, null, null],
    ]);
    expect(costLine(rows)).toBe('MariaDB seconds/s unknown; pool wait seconds/s unknown');
  });

  it('prints the seconds, share, seconds ceiling and pool wait, and fails on a pair over its seconds ceiling', () => {
    const rows = judgeLoad(
      budget,
      measurePairs([
        {
          before: prom([req('NodeHeartbeat', 'resources', 0), sec('NodeHeartbeat', 'resources', 0)]),
          after: prom([req('NodeHeartbeat', 'resources', 10), sec('NodeHeartbeat', 'resources', 4), wait('NodeHeartbeat', 'resources', 0.5)]),
          seconds: 10,
        },
      ]),
      shape,
    );
    expect(loadTable(rows)).toMatch(/NodeHeartbeat\s+resources\s+1\.000\s+1\.000\s+1\.500\s+0\.400\s+100 %\s+0\.0520\s+0\.0500\s+OVER db s/);
    expect(loadExitCode(rows)).toBe(1);
    expect(formatShare(0.0004)).toBe('<0.1 %');
    expect(formatShare(0.035)).toBe('3.5 %');
    expect(formatShare(0.9975)).toBe('>99 %');
    expect(formatShare(1)).toBe('100 %');
  });
});

describe('the admin Load page: MariaDB seconds beside the rates', () => {
  const replica = (at: number, text: string[]): ReplicaSample => ({ at, ...readExposition(text.join('\n')) });

  it('reads the seconds counters from a peer’s /metrics (declared without a sample: reported, at zero)', () => {
    // The load tools outside the tier name the tier's counters as its catalogue does.
    expect([QUERY_SECONDS_COUNTER, POOL_WAIT_COUNTER]).toEqual([METRIC_NAMES.requestQuerySeconds, METRIC_NAMES.requestPoolWait]);
    const peer = readExposition([sec('GetNode', 'agent', 1.5), wait('GetNode', 'agent', 0.25), req('GetNode', 'agent', 3)].join('\n'));
    expect(peer.seconds?.get('GetNode\u0000agent')).toBe(1.5);
    expect(peer.poolWait?.get('GetNode\u0000agent')).toBe(0.25);
    expect(readExposition(req('GetNode', 'agent', 3)).seconds).toBeUndefined();
    expect(readExposition('# TYPE database_request_query_seconds_total counter').seconds).toEqual(new Map());
  });

  it('sums seconds over the replicas, ranks the costliest first, and shows them against the seconds ceiling', () => {
    const before = { at: 0, replicas: new Map([['a', replica(0, [req('NodeHeartbeat', 'resources', 0), sec('NodeHeartbeat', 'resources', 0), req('GetNode', 'cleaner', 0)])]]) };
    const after = {
      at: 10_000,
      replicas: new Map([['a', replica(10_000, [req('NodeHeartbeat', 'resources', 10), sec('NodeHeartbeat', 'resources', 4), req('GetNode', 'cleaner', 100), sec('GetNode', 'cleaner', 0.01)])]]),
    };
    const measured = ratesBetween(before, after);
    expect(measured.map((r) => [r.operation, r.rate, r.calls])).toEqual([
      ['NodeHeartbeat', 1, 10],
      ['GetNode', 10, 100],
    ]);
    expect(measured[0]?.seconds).toBeCloseTo(0.4, 12);
    expect(measured[0]?.poolWait).toBeNull();
    const { rows } = judgeWindow(budget, before, after, shape);
    expect(rows.map((r) => [r.operation, statusText(r)])).toEqual([
      ['NodeHeartbeat', 'OVER db s'],
      ['GetNode', 'OVER calls'],
    ]);
    const report: LoadReport = {
      seconds: 10,
      replicas: [{ id: 'a', address: '' }],
      shape,
      changesPerSecond: undefined,
      budget: { path: 'budget.json', mode: 'feed', churnModel: false },
      rows,
    };
    const html = loadMain(report, 5000);
    expect(html).toMatch(/<th scope="row">NodeHeartbeat<\/th><td>resources<\/td><td class="num">1\.000<\/td><td class="num">10<\/td><td class="num">1\.000<\/td><td class="num">1\.500<\/td><td class="num">0\.400<\/td><td class="num">&gt;99 %<\/td><td class="num">0\.0520<\/td><td class="num">-<\/td><td><span class="status">OVER db s<\/span>/);
    expect(html).toContain('MariaDB busy 0.401 s/s');
    expect(html).toContain('the costliest pair is NodeHeartbeat · resources (&gt;99 %)');
    expect(html).toContain('<title id="chart-seconds-title">MariaDB seconds per second by operation and caller, last minute</title>');
    // The seconds chart marks the heartbeat over (its seconds), the calls chart marks it ok (its calls are within).
    const seconds = html.slice(html.indexOf('chart-seconds-title'), html.indexOf('chart-calls-title'));
    expect(seconds).toMatch(/<g class="over"><text[^>]*>NodeHeartbeat · resources/);
    const calls = html.slice(html.indexOf('chart-calls-title'));
    expect(calls).toMatch(/<g class="ok"><text[^>]*>NodeHeartbeat · resources/);
  });
});
