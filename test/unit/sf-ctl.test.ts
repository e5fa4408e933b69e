// sf-ctl's pure parts: argument parsing, formatting, rates from scrapes (counter resets
// included), budget judgement, the audit's declared-against-measured rows, the status
// report, stop-daemon and start-daemon against a scripted client, and the dispatch's exit
// codes for bad arguments.
import { describe, expect, it } from 'vitest';
import { churnAbove } from '../../proto/runtime/budget.js';
import type { LoadBudget } from '../../proto/runtime/budget.js';
import { parseProm } from '../../ops/prom.js';
import { daemonTaskRows, daemonTaskTable, meanLatencies, tierTaskRows } from '../../ops/ctl/audit-report.js';
import { EXIT, formatDurationMs, parseAddressList, parseDuration, splitCommand } from '../../ops/ctl/cli.js';
import type { Io } from '../../ops/ctl/cli.js';
import { acceptedTarget, displayTarget, tidyDetails } from '../../ops/ctl/connect.js';
import { main } from '../../ops/ctl/ctl.js';
import { formatAge, formatRate, table } from '../../ops/ctl/format.js';
import { formatAge as browserFormatAge } from '../../server/admin/browser/live.js';
import { changeRateOf, instancesFrom, judgeLoad, loadExitCode, loadTable, measurePairs, parseBudget } from '../../ops/ctl/load-report.js';
import type { Measured } from '../../ops/ctl/load-report.js';
import { replicaEndpoints, restartedBetween } from '../../ops/ctl/scrape.js';

const prom = (lines: string[]): ReturnType<typeof parseProm> => parseProm(lines.join('\n'));
const req = (op: string, caller: string, n: number): string => `database_requests_total{operation="${op}",caller_daemon="${caller}"} ${n}`;
/** A pair measured without MariaDB seconds (a replica that does not report them). */
const calls = (operation: string, caller_daemon: string, rate: number, n: number): Measured => ({ operation, caller_daemon, rate, calls: n, seconds: null, share: null, poolWait: null });

describe('arguments', () => {
  it('parses durations and names the flag and the accepted form when it cannot', () => {
    expect(parseDuration('--window', '30s')).toBe(30_000);
    expect(parseDuration('--window', '500ms')).toBe(500);
    expect(parseDuration('--window', '1.5s')).toBe(1500);
    expect(parseDuration('--window', '2m')).toBe(120_000);
    expect(() => parseDuration('--window', 'fast')).toThrow(/--window: "fast" is not a duration such as 500ms, 30s, 2m/);
    expect(() => parseDuration('--window', '30')).toThrow(/--window/);
    expect(() => parseDuration('--timeout', '0s')).toThrow(/--timeout/);
    expect(() => parseDuration('--window', '100ms', { minMs: 500, maxMs: 3_600_000 })).toThrow('--window: "100ms" is out of range (500ms to 1h)');
    expect(formatDurationMs(2000)).toBe('2s');
    expect(formatDurationMs(1500)).toBe('1.5s');
    expect(formatDurationMs(120_000)).toBe('2m');
    expect(formatDurationMs(250)).toBe('250ms');
    expect(formatDurationMs(3_600_000)).toBe('1h');
  });

  it('parses host:port lists', () => {
    expect(parseAddressList('--metrics', '127.0.0.1:13006, db-2.example:13006,[::1]:9')).toEqual(['127.0.0.1:13006', 'db-2.example:13006', '[::1]:9']);
    expect(() => parseAddressList('--metrics', 'localhost')).toThrow(/--metrics: "localhost" is not host:port/);
    expect(() => parseAddressList('--metrics', 'a:70000')).toThrow(/--metrics/);
    expect(() => parseAddressList('--metrics', ',')).toThrow(/--metrics: empty/);
  });

  it('finds the command among global options, never taking --target’s value for it', () => {
    expect(splitCommand(['--target', 'status', 'load', '--json'])).toEqual({ command: 'load', rest: ['--target', 'status', '--json'] });
    expect(splitCommand(['--json', 'status'])).toEqual({ command: 'status', rest: ['--json'] });
    expect(splitCommand(['--help'])).toEqual({ command: undefined, rest: ['--help'] });
  });

  it('accepts the targets the client accepts, and refuses what is not an address', () => {
    expect(acceptedTarget('127.0.0.1:13005')).toBe(true);
    expect(acceptedTarget('10.0.0.1:13005,10.0.0.2:13005')).toBe(true);
    expect(acceptedTarget('dns:///db.example:13005')).toBe(true);
    expect(acceptedTarget('db.example')).toBe(false);
    expect(acceptedTarget('a b:1')).toBe(false);
    expect(displayTarget('ipv4:127.0.0.1:13005')).toBe('127.0.0.1:13005');
    expect(displayTarget('dns:///db:13005')).toBe('db:13005');
  });

  it('shortens grpc-js details to the cause', () => {
    expect(tidyDetails('round_robin: No connection established. Last error: No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1. Resolution note:')).toBe(
      'connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(tidyDetails('Deadline exceeded after 5.001s,\n LB pick: 0.001s')).toBe('Deadline exceeded after 5.001s, LB pick: 0.001s');
  });
});

describe('dispatch', () => {
  function io(): Io & { stdout: string; lines: string[] } {
    const o = {
      stdout: '',
      lines: [] as string[],
      out: (t: string) => void (o.stdout += t),
      note: (l: string) => void o.lines.push(l),
      env: {},
    };
    return o;
  }

  it('answers --help with the exit codes, and exits 2 naming what is wrong', async () => {
    const a = io();
    expect(await main(['--help'], a)).toBe(EXIT.ok);
    expect(a.stdout).toMatch(/exit codes:[\s\S]*3 {2}a replica unreachable/);
    const b = io();
    expect(await main(['load', '--help'], b)).toBe(EXIT.ok);
    expect(b.stdout).toMatch(/--budget B/);
    expect(a.stdout).toMatch(/backup {8}write a consistent backup[\s\S]*restore {7}replace the database with a backup/);
    const r = io();
    expect(await main(['restore', '--help'], r)).toBe(EXIT.ok);
    expect(r.stdout).toMatch(/--bump N[\s\S]*4 live replicas in the database/);
    for (const [argv, pattern] of [
      [[], /a command is needed/],
      [['frobnicate'], /unknown command "frobnicate"/],
      [['load', '--window', 'soon'], /--window: "soon" is not a duration/],
      [['load', '--speed', '3'], /load: Unknown option '--speed'/],
      [['status', 'extra'], /status: .*positional/i],
      [['stop-daemon', 'node-1'], /expected NODE DAEMON/],
      [['stop-daemon', 'node-1', 'Bad Name'], /DAEMON: "Bad Name" is not a daemon name/],
      [['stop-daemon', 'n', 'agent', '--timeout', 'never'], /--timeout: "never"/],
      [['start-daemon', 'node-1'], /^start-daemon: expected NODE DAEMON/],
      [['start-daemon', 'node-1', 'agent', 'extra'], /^start-daemon: expected NODE DAEMON/],
      [['start-daemon', 'node-1', 'Bad Name'], /DAEMON: "Bad Name" is not a daemon name/],
      [['start-daemon', 'n', 'agent', '--timeout', '0.5s'], /--timeout: "0.5s" is out of range \(1s to 1h\)/],
      [['--target', 'not an address', 'status'], /--target: "not an address" is not host:port/],
      [['audit', '--daemon-metrics', 'nohost'], /--daemon-metrics: "nohost" is not host:port/],
      [['migrate', '--json'], /migrate: --json does not apply/],
      [['backup'], /backup: FILE is needed/],
      [['backup', 'b.sql', '--json'], /backup: --json does not apply/],
      [['restore', 'b.sql'], /restore: replaces every table of the database .* add --yes/],
      [['restore', '--yes'], /restore: FILE is needed/],
      [['restore', 'b.sql', '--yes', '--bump', 'lots'], /--bump: "lots" is not a whole number/],
      [['--target', '127.0.0.1:13005', 'restore', 'b.sql', '--yes'], /restore: --target does not apply/],
    ] as const) {
      const c = io();
      expect(await main([...argv], c), argv.join(' ')).toBe(EXIT.usage);
      expect(c.lines).toHaveLength(1);
      expect(c.lines[0]).toMatch(pattern);
    }
  });
});

describe('formatting', () => {
  it('formats ages for people', () => {
    expect(formatAge(-1)).toBe('never');
    expect(formatAge(null)).toBe('never');
    expect(formatAge(350)).toBe('350 ms');
    expect(formatAge(4200)).toBe('4.2 s');
    expect(formatAge(4000)).toBe('4 s');
    expect(formatAge(42_400)).toBe('42 s');
    expect(formatAge(180_000)).toBe('3 min');
    expect(formatAge(9_000_000)).toBe('2.5 h');
    expect(formatAge(3 * 86_400_000)).toBe('3 d');
  });

  it("ages read the same in the admin view's browser module as here", () => {
    for (const ms of [-1, 0, 350, 999.6, 4200, 4000, 9_950, 42_400, 59_600, 180_000, 3_599_000, 9_000_000, 86_399_000, 3 * 86_400_000]) {
      expect(browserFormatAge(ms), String(ms)).toBe(formatAge(ms));
    }
  });

  it('formats rates and tables', () => {
    expect(formatRate(0)).toBe('0');
    expect(formatRate(123.4)).toBe('123');
    expect(formatRate(12.34)).toBe('12.3');
    expect(formatRate(0.35)).toBe('0.350');
    expect(formatRate(1 / 60)).toBe('0.0167');
    expect(formatRate(null)).toBe('-');
    expect(table(['a', 'n'], [['x', '1'], ['long', '10']], [1])).toBe('a      n\n----  --\nx      1\nlong  10\n');
    expect(table(['a'], [])).toBe('a\n-\n(none)\n');
  });
});

describe('load: rates and budget', () => {
  const budget: LoadBudget = {
    derivation: { command: 'test', derivedAt: '', mode: 'feed', runs: [] },
    ceiling: { factor: 1.5, floor: 0.2 },
    unbudgetedSteadyRate: 1 / 60,
    pairs: [
      { operation: 'GetNodeDaemonState', caller_daemon: 'queues', cluster: 0, perNode: 0.5, perInstance: 0, r2: 1 },
      { operation: 'GetInstance', caller_daemon: 'resources', cluster: 0.1, perNode: 0, perInstance: 0.1, r2: 1 },
    ],
  };

  it('sums rates over replicas, each over its own elapsed time', () => {
    const rows = measurePairs([
      { before: prom([req('GetNode', 'cleaner', 10)]), after: prom([req('GetNode', 'cleaner', 30)]), seconds: 2 },
      { before: prom([req('GetNode', 'cleaner', 5)]), after: prom([req('GetNode', 'cleaner', 9), req('Dequeue', 'queues', 4)]), seconds: 4 },
    ]);
    expect(rows).toEqual([calls('GetNode', 'cleaner', 10 + 1, 24), calls('Dequeue', 'queues', 1, 4)]);
  });

  it('never reads a counter reset as a negative rate, and counts a restarted replica from zero', () => {
    const before = prom(['process_start_time_seconds 100', req('GetNode', 'cleaner', 500)]);
    const after = prom(['process_start_time_seconds 160', req('GetNode', 'cleaner', 20)]);
    expect(restartedBetween(before, after)).toBe(true);
    expect(restartedBetween(before, before)).toBe(false);
    // counterDelta alone: a value that went down counts from zero.
    expect(measurePairs([{ before, after, seconds: 2 }])).toEqual([calls('GetNode', 'cleaner', 10, 20)]);
    // A restart whose new count passed the old one: only the start time tells; before = [].
    const grown = prom(['process_start_time_seconds 160', req('GetNode', 'cleaner', 600)]);
    expect(measurePairs([{ before: [], after: grown, seconds: 2 }])[0]?.calls).toBe(600);
  });

  it('reads instances from the gauge, or says it is unknown', () => {
    expect(instancesFrom([prom(['database_cluster_instances 4']), prom(['database_cluster_instances 6'])])).toBe(6);
    expect(instancesFrom([prom([req('GetNode', 'x', 1)])])).toBeUndefined();
  });

  it('reads the cluster change rate from the feed counter (own commits only) and judges churn above the quiet rate', () => {
    const feed = (commit: number, tail: number): string[] => [
      `database_changefeed_changes_total{via="commit"} ${commit}`,
      `database_changefeed_changes_total{via="tail"} ${tail}`,
    ];
    // Replica a committed 20 in 10 s, b 30 in 10 s; their tails (each other's rows) do not count.
    const windows = [
      { before: prom(feed(100, 50)), after: prom(feed(120, 80)), seconds: 10 },
      { before: prom(feed(200, 100)), after: prom(feed(230, 120)), seconds: 10 },
    ];
    expect(changeRateOf(windows)).toBeCloseTo(5, 12);
    expect(changeRateOf([{ before: prom([req('GetNode', 'x', 1)]), after: prom([req('GetNode', 'x', 2)]), seconds: 1 }])).toBeUndefined();
    const churned: LoadBudget = {
      ...budget,
      changeRate: { cluster: 1, perNode: 0.5, perInstance: 0 },
      pairs: [{ operation: 'GetObjectState', caller_daemon: 'sidechannel', cluster: 0, perNode: 0.1, perInstance: 0, perChurn: 2, perNodeChurn: 0, r2: 1 }],
    };
    // Quiet rate at 4 nodes: 1 + 2 = 3 changes/s; 5 measured → churn 2 → expected 0.4 + 4.
    const shape = { nodes: 4, instances: 0, churn: churnAbove(churned, { nodes: 4, instances: 0 }, 5) };
    expect(shape.churn).toBeCloseTo(2, 12);
    const rows = judgeLoad(churned, [calls('GetObjectState', 'sidechannel', 4, 40)], shape);
    expect(rows[0]).toMatchObject({ status: 'ok' });
    expect(rows[0]?.expected).toBeCloseTo(4.4, 12);
    // The same rate in a quiet cluster is over its ceiling.
    expect(judgeLoad(churned, [calls('GetObjectState', 'sidechannel', 4, 40)], { nodes: 4, instances: 0 })[0]?.status).toBe('OVER');
  });

  it('judges each pair: ok, OVER, unbudgeted, rare, or not judged', () => {
    const shape = { nodes: 4, instances: 10 };
    const rows = judgeLoad(
      budget,
      [
        calls('GetNodeDaemonState', 'queues', 3.5, 7), // ceiling max(3, 2.2) = 3
        calls('GetInstance', 'resources', 1, 2), // expected 1.1, ceiling 1.65
        calls('GetNode', 'queues', 0.5, 1),
        calls('ListLeases', 'resources', 0.001, 1),
        calls('GetClusterStatus', 'sf-ctl', 9, 18),
      ],
      shape,
    );
    expect(rows.map((r) => [r.operation, r.status])).toEqual([
      ['GetNodeDaemonState', 'OVER'],
      ['GetInstance', 'ok'],
      ['GetNode', 'unbudgeted'],
      ['ListLeases', 'rare'],
      ['GetClusterStatus', '-'],
    ]);
    expect(rows[0]?.expected).toBe(2);
    expect(rows[0]?.ceiling).toBe(3);
    expect(rows[1]?.expected).toBeCloseTo(1.1);
    expect(loadExitCode(rows)).toBe(EXIT.failed);
    expect(loadExitCode(rows.filter((r) => r.status !== 'OVER' && r.status !== 'unbudgeted'))).toBe(EXIT.ok);
    expect(loadTable(rows)).toMatch(/GetNodeDaemonState\s+queues\s+3\.500\s+2\.000\s+3\.000\s+-\s+-\s+-\s+-\s+OVER calls/);
  });

  it('refuses a budget file it cannot use, and reads the committed ones', async () => {
    expect(() => parseBudget('{"pairs": 3}')).toThrow(/pairs/);
    expect(() => parseBudget('not json')).toThrow();
    const { readFileSync } = await import('node:fs');
    expect(parseBudget(readFileSync('ops/load-budget.json', 'utf8')).pairs.length).toBeGreaterThan(0);
    expect(parseBudget(readFileSync('ops/load-budget.anchor.json', 'utf8')).pairs.length).toBeGreaterThan(0);
  });

  it('scrapes the live replicas’ recorded metrics addresses, or --metrics', () => {
    const replicas = [
      { replicaId: 'a', live: true, metricsAddress: '10.0.0.1:13006' },
      { replicaId: 'b', live: false, metricsAddress: '10.0.0.2:13006' },
    ];
    expect(replicaEndpoints(replicas, undefined)).toEqual([{ id: 'replica a', address: '10.0.0.1:13006' }]);
    expect(replicaEndpoints(replicas, ['h:1'])).toEqual([{ id: 'h:1', address: 'h:1' }]);
    expect(() => replicaEndpoints([{ replicaId: 'c', live: true, metricsAddress: '' }], undefined)).toThrow(/replica c: it recorded no metrics address/);
  });
});

describe('audit rows', () => {
  const tierBefore = prom(['database_queries_total{source="registry"} 10', 'database_queries_total{source="changefeed"} 100']);
  const tierAfter = prom([
    'database_periodic_task_interval_seconds{task="registry_heartbeat",source="registry",duty="keep live"} 5',
    'database_periodic_task_interval_seconds{task="registry_peers",source="registry",duty="know peers"} 15',
    'database_periodic_task_interval_seconds{task="changefeed_tail",source="changefeed",duty="tail"} 2',
    'database_queries_total{source="registry"} 14',
    'database_queries_total{source="changefeed"} 105',
    req('GetNodeDaemonState', 'agent', 10),
    req('NodeHeartbeat', 'agent', 3),
    req('ListLeases', 'agent', 2),
    'database_request_duration_seconds_sum{operation="NodeHeartbeat"} 0.006',
    'database_request_duration_seconds_count{operation="NodeHeartbeat"} 3',
    req('WaitForChanges', 'agent', 1),
    'database_request_duration_seconds_sum{operation="WaitForChanges"} 30',
    'database_request_duration_seconds_count{operation="WaitForChanges"} 1',
  ]);
  const windows = [{ before: tierBefore, after: tierAfter, seconds: 10 }];

  it('puts the tier’s tasks beside their source’s measured statements', () => {
    const rows = tierTaskRows(windows);
    expect(rows.map((r) => r.task)).toEqual(['changefeed_tail', 'registry_heartbeat', 'registry_peers']);
    const heartbeat = rows.find((r) => r.task === 'registry_heartbeat');
    expect(heartbeat).toMatchObject({ source: 'registry', intervalSeconds: 5, replicas: 1, declaredPerSecond: 0.2, sourceMeasuredPerSecond: 0.4 });
    expect(heartbeat?.sourceDeclaredPerSecond).toBeCloseTo(0.2 + 1 / 15);
    expect(rows.find((r) => r.task === 'changefeed_tail')?.sourceMeasuredPerSecond).toBeCloseTo(0.5);
  });

  it('puts daemon tasks beside the tier’s measured rate and cost, and lists undeclared calls', () => {
    const daemon = (interval: number) =>
      prom([
        `database_daemon_periodic_task_interval_seconds{daemon="agent",task="daemon-state-poll",operation="GetNodeDaemonState",scale="process"} 2`,
        `database_daemon_periodic_task_interval_seconds{daemon="agent",task="node-heartbeat",operation="NodeHeartbeat",scale="process"} ${interval}`,
        `database_daemon_periodic_task_interval_seconds{daemon="cluster",task="recovery-sweep",operation="RequeueExpiredClaims",scale="elected"} 30`,
        `database_daemon_periodic_task_interval_seconds{daemon="queues",task="claim-renewal",operation="RenewClaim",scale="job"} 20`,
        `database_daemon_periodic_task_interval_seconds{daemon="agent",task="change-feed-wait",operation="WaitForChanges",scale="process"} 30`,
      ]);
    expect(meanLatencies(windows).get('NodeHeartbeat')).toBeCloseTo(2);
    const rows = daemonTaskRows([daemon(10), daemon(10)], windows);
    const poll = rows.find((r) => r.task === 'daemon-state-poll');
    expect(poll).toMatchObject({ processes: 2, declaredPerSecond: 1, measuredPerSecond: 1, meanLatencyMs: null });
    const beat = rows.find((r) => r.task === 'node-heartbeat');
    expect(beat?.declaredPerSecond).toBeCloseTo(0.2);
    expect(beat?.measuredPerSecond).toBeCloseTo(0.3);
    expect(beat?.costMsPerSecond).toBeCloseTo(0.6);
    expect(rows.find((r) => r.task === 'recovery-sweep')?.declaredPerSecond).toBeCloseTo(1 / 30);
    expect(rows.find((r) => r.task === 'claim-renewal')?.declaredPerSecond).toBeNull();
    expect(rows.find((r) => r.task === '(undeclared)')).toMatchObject({ daemon: 'agent', operation: 'ListLeases', measuredPerSecond: 0.2 });
    // A long-poll's handling time is the hold, not a cost.
    expect(rows.find((r) => r.task === 'change-feed-wait')).toMatchObject({ longPoll: true, meanLatencyMs: 30_000, costMsPerSecond: null });
    expect(daemonTaskTable(rows)).toMatch(/change-feed-wait\s+WaitForChanges\s+process\s+30 s\s+2\s+0\.0667\s+0\.100\s+30000 ms held\s+long-poll/);
  });
});
