// promtool unit tests for the rules (`promtool test rules`), generated from the same budget
// as the rules: the pairs, ceilings and thresholds move when the budget is re-derived, so
// hand-written numbers would rot. Every alert is shown firing in one case and silent in
// another; the expected and ceiling recording rules are checked for every pair at two
// cluster sizes.
import { basename } from 'node:path';
import { QUERY_SECONDS_COUNTER } from '@sfdb/proto/runtime/budget';
import type { LoadBudget, PairBudget, RateModel, Shape } from '@sfdb/proto/runtime/budget';
import {
  ERROR_RATIO_MAX,
  ERROR_RATIO_MIN_RATE,
  POOL_BUSY_SHARE,
  RECORDED,
  RULES_FILE,
  WAITER_SHARE,
  alertSpecs,
  annotationsOf,
  budgetCallers,
  ceilingAsRecorded,
  expectedAsRecorded,
  generatedHeader,
  secondsCeilingAsRecorded,
  secondsPairs,
} from './rules.js';
import type { AlertSpec, ValueFormat } from './rules.js';
import { toYaml } from './yaml.js';
import type { Yaml } from './yaml.js';

export const RULE_TESTS_FILE = 'ops/prometheus/sf-database-rules.test.yaml';

/** A small cluster, and one large enough that some fitted models go negative and clamp to 0. */
export const MODEL_SHAPES: readonly Shape[] = [
  { nodes: 3, instances: 4 },
  { nodes: 12, instances: 40 },
];

/** Operations no budget has: the unbudgeted cases. */
const STEADY_PROBE = 'UnbudgetedSteadyProbe';
const SLOW_PROBE = 'UnbudgetedSlowProbe';
/** Long enough for every `for:` plus the 5m rate window. */
const MINUTES = 40;

type Labels = Record<string, string>;

interface Context {
  budget: LoadBudget;
  job: string;
  alerts: Map<string, AlertSpec>;
}

interface Fired {
  labels: Labels;
  value?: number;
}

// ---- Input series ----------------------------------------------------------------------

function seriesName(metric: string, labels: Labels): string {
  return `${metric}{${Object.entries(labels)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(',')}}`;
}

function series(ctx: Context, metric: string, labels: Labels, values: string): Yaml {
  return { series: seriesName(metric, { job: ctx.job, ...labels }), values };
}

/** A gauge holding `value`; promtool's `a x n` notation. */
const steady = (value: number): string => `${value}x${MINUTES}`;
/** A counter growing by `perMinute` each (1m) sample. */
const growing = (perMinute: number): string => `0+${perMinute}x${MINUTES}`;

/** Replica `instance` up, reporting `shape` as the cluster size. */
function healthyReplica(ctx: Context, instance: string, shape: Shape): Yaml[] {
  return [
    series(ctx, 'up', { instance }, steady(1)),
    series(ctx, 'database_cluster_nodes', { instance, state: 'live' }, steady(shape.nodes)),
    series(ctx, 'database_cluster_instances', { instance }, steady(shape.instances)),
  ];
}

function requests(ctx: Context, instance: string, operation: string, caller: string, perMinute: number): Yaml {
  return series(ctx, 'database_requests_total', { instance, operation, caller_daemon: caller }, growing(perMinute));
}

// ---- Expectations ----------------------------------------------------------------------

/** Go's `%.4g` for the values the cases produce (no exponent form needed). */
function goG4(v: number): string {
  const s = v.toPrecision(4);
  if (s.includes('e')) throw new Error(`no test value should need an exponent: ${v}`);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** $value as the rule's template shows it (VALUE_TEMPLATES in rules.ts). */
function shownValue(format: ValueFormat | undefined, v: number | undefined): string {
  if (format === undefined || v === undefined) return '';
  if (format === 'rate') return v.toFixed(3);
  if (format === 'count') return v.toFixed(0);
  return `${goG4(v * 100)}%`;
}

function alertCase(ctx: Context, name: string, evalTime: string, fired: Fired[]): Yaml {
  const spec = ctx.alerts.get(name);
  if (!spec) throw new Error(`no alert ${name}`);
  const expAlerts = fired.map((f) => {
    const label = (l: string): string => {
      const text = f.labels[l];
      if (text === undefined) throw new Error(`${name}: the test gives no label ${l}`);
      return text;
    };
    return {
      exp_labels: { ...f.labels, severity: spec.severity },
      exp_annotations: annotationsOf(spec, label, shownValue(spec.value, f.value)),
    };
  });
  return { eval_time: evalTime, alertname: name, exp_alerts: expAlerts };
}

/** Exact floats, computed as the rule computes them: promtool 2.42 compares samples exactly. */
function modelSamples(ctx: Context, record: string, shape: Shape, value: (p: PairBudget) => number): Yaml {
  return ctx.budget.pairs.map((p) => ({
    labels: seriesName(record, { operation: p.operation, caller_daemon: p.caller_daemon }),
    value: value(p),
  }));
}

/** The seconds model's numbers, for the pairs that carry one. */
function secondsSamples(ctx: Context, record: string, value: (seconds: RateModel) => number): Yaml {
  return secondsPairs(ctx.budget).map((p) => ({
    labels: seriesName(record, { operation: p.operation, caller_daemon: p.caller_daemon }),
    value: value(p.seconds),
  }));
}

// ---- Cases -----------------------------------------------------------------------------

/** The model's numbers at two sizes; replica b lags by one and stale nodes never count. */
function modelTest(ctx: Context): Yaml {
  const [small, large] = MODEL_SHAPES as [Shape, Shape];
  const twoPhases = (a: number, b: number): string => `${a}x10 ${b}x${MINUTES - 11}`;
  const input = (instance: string, lag: number): Yaml[] => [
    series(ctx, 'up', { instance }, steady(1)),
    series(ctx, 'database_cluster_nodes', { instance, state: 'live' }, twoPhases(small.nodes - lag, large.nodes - lag)),
    series(ctx, 'database_cluster_nodes', { instance, state: 'stale' }, steady(large.nodes + 5)),
    series(ctx, 'database_cluster_instances', { instance }, twoPhases(Math.max(0, small.instances - lag), large.instances - lag)),
  ];
  const at = (evalTime: string, shape: Shape): Yaml[] => [
    { expr: RECORDED.nodesLive, eval_time: evalTime, exp_samples: [{ labels: RECORDED.nodesLive, value: shape.nodes }] },
    { expr: RECORDED.instances, eval_time: evalTime, exp_samples: [{ labels: RECORDED.instances, value: shape.instances }] },
    { expr: RECORDED.expected, eval_time: evalTime, exp_samples: modelSamples(ctx, RECORDED.expected, shape, (p) => expectedAsRecorded(p, shape, ctx.budget)) },
    {
      expr: RECORDED.ceiling,
      eval_time: evalTime,
      exp_samples: modelSamples(ctx, RECORDED.ceiling, shape, (p) => ceilingAsRecorded(ctx.budget, p, shape)),
    },
    ...(secondsPairs(ctx.budget).length === 0
      ? []
      : [
          { expr: RECORDED.expectedSeconds, eval_time: evalTime, exp_samples: secondsSamples(ctx, RECORDED.expectedSeconds, (m) => expectedAsRecorded(m, shape, ctx.budget)) },
          {
            expr: RECORDED.secondsCeiling,
            eval_time: evalTime,
            exp_samples: secondsSamples(ctx, RECORDED.secondsCeiling, (m) => secondsCeilingAsRecorded(ctx.budget, m, shape)),
          },
        ]),
  ];
  return {
    name: 'load model: expected and ceiling per pair at two cluster sizes',
    interval: '1m',
    input_series: [...input('replica-a:9464', 0), ...input('replica-b:9464', 1)],
    promql_expr_test: [...at('5m', small), ...at('20m', large)],
    alert_rule_test: [alertCase(ctx, 'SfdbLoadModelBlind', '15m', [])],
  };
}

/** Calls per minute just below and well above a pair's ceiling at `shape`. */
function aroundCeiling(ctx: Context, pair: PairBudget, shape: Shape): { below: number; above: number } {
  const perMinute = ceilingAsRecorded(ctx.budget, pair, shape) * 60;
  return { below: Math.ceil(perMinute) - 1, above: Math.ceil(perMinute * 1.5) + 1 };
}

function pairsTest(ctx: Context): Yaml {
  const shape = MODEL_SHAPES[0] as Shape;
  const [over, within] = ctx.budget.pairs as [PairBudget, PairBudget];
  const caller = budgetCallers(ctx.budget)[0] as string;
  const steadyPerMinute = Math.ceil(ctx.budget.unbudgetedSteadyRate * 60) + 1;
  const slowPerMinute = (ctx.budget.unbudgetedSteadyRate * 60) / 2;
  const overPerMinute = aroundCeiling(ctx, over, shape).above;
  const i = 'replica-a:9464';
  return {
    name: 'budget pairs: over the ceiling, within it, unbudgeted steady and slow, and a caller that is no daemon',
    interval: '1m',
    input_series: [
      ...healthyReplica(ctx, i, shape),
      requests(ctx, i, over.operation, over.caller_daemon, overPerMinute),
      requests(ctx, i, within.operation, within.caller_daemon, aroundCeiling(ctx, within, shape).below),
      requests(ctx, i, STEADY_PROBE, caller, steadyPerMinute),
      requests(ctx, i, SLOW_PROBE, caller, slowPerMinute),
      requests(ctx, i, STEADY_PROBE, 'bench', 600),
    ],
    alert_rule_test: [
      alertCase(ctx, 'SfdbPairOverCeiling', '5m', []),
      alertCase(ctx, 'SfdbPairOverCeiling', '20m', [
        { labels: { operation: over.operation, caller_daemon: over.caller_daemon }, value: (overPerMinute * 5) / 300 },
      ]),
      alertCase(ctx, 'SfdbUnbudgetedPair', '10m', []),
      alertCase(ctx, 'SfdbUnbudgetedPair', '25m', [{ labels: { operation: STEADY_PROBE, caller_daemon: caller }, value: (steadyPerMinute * 5) / 300 }]),
    ],
  };
}

/**
 * A pair whose statements cost MariaDB more seconds than its ceiling allows (at a call rate
 * the budget expects), one within its ceiling: the seconds alert names the first only.
 * None when the budget has no seconds models.
 */
function secondsTests(ctx: Context): Yaml[] {
  const pairs = secondsPairs(ctx.budget);
  const [over, within] = pairs;
  if (over === undefined) return [];
  const shape = MODEL_SHAPES[0] as Shape;
  const ceilingPerMinute = (m: RateModel): number => secondsCeilingAsRecorded(ctx.budget, m, shape) * 60;
  const overPerMinute = Math.ceil(ceilingPerMinute(over.seconds) * 1.5) + 1;
  const i = 'replica-a:9464';
  const seconds = (pair: PairBudget, perMinute: number): Yaml =>
    series(ctx, QUERY_SECONDS_COUNTER, { instance: i, operation: pair.operation, caller_daemon: pair.caller_daemon }, growing(perMinute));
  return [
    {
      name: 'budget pairs: MariaDB seconds over the seconds ceiling, and within it',
      interval: '1m',
      input_series: [
        ...healthyReplica(ctx, i, shape),
        seconds(over, overPerMinute),
        ...(within ? [seconds(within, ceilingPerMinute(within.seconds) / 2)] : []),
      ],
      alert_rule_test: [
        alertCase(ctx, 'SfdbPairOverSecondsCeiling', '5m', []),
        alertCase(ctx, 'SfdbPairOverSecondsCeiling', '20m', [{ labels: { operation: over.operation, caller_daemon: over.caller_daemon }, value: (overPerMinute * 5) / 300 }]),
      ],
    },
    {
      name: 'budget pairs: no seconds alert while the cluster size is unknown',
      interval: '1m',
      input_series: [series(ctx, 'up', { instance: i }, steady(1)), seconds(over, overPerMinute * 100)],
      alert_rule_test: [alertCase(ctx, 'SfdbPairOverSecondsCeiling', '20m', [])],
    },
  ];
}

/** No target up; then up but no cluster size: blind, and no budget alert guesses. */
function blindTests(ctx: Context): Yaml[] {
  const [pair] = ctx.budget.pairs as [PairBudget];
  const i = 'replica-a:9464';
  return [
    {
      name: 'load model blind: no sf-database target up',
      interval: '1m',
      input_series: [series(ctx, 'up', { instance: i }, steady(0))],
      alert_rule_test: [alertCase(ctx, 'SfdbLoadModelBlind', '5m', []), alertCase(ctx, 'SfdbLoadModelBlind', '15m', [{ labels: {} }])],
    },
    {
      name: 'load model blind: replicas up but no cluster size',
      interval: '1m',
      input_series: [series(ctx, 'up', { instance: i }, steady(1)), requests(ctx, i, pair.operation, pair.caller_daemon, 6000)],
      alert_rule_test: [
        alertCase(ctx, 'SfdbLoadModelBlind', '15m', [{ labels: {} }]),
        alertCase(ctx, 'SfdbPairOverCeiling', '20m', []),
        alertCase(ctx, 'SfdbUnbudgetedPair', '25m', []),
      ],
    },
  ];
}

/** a: pool and waiters at their thresholds; b: one below; c: calls queued; d: down. */
function replicasTest(ctx: Context): Yaml {
  const poolLimit = 10;
  const waiterLimit = 20_000;
  const busyAt = Math.ceil(poolLimit * POOL_BUSY_SHARE);
  const waitersAt = Math.ceil(waiterLimit * WAITER_SHARE);
  const replica = (instance: string, busy: number, queued: number, waiters: number): Yaml[] => [
    ...healthyReplica(ctx, instance, MODEL_SHAPES[0] as Shape),
    series(ctx, 'database_pool_connections', { instance, state: 'busy' }, steady(busy)),
    series(ctx, 'database_pool_connections', { instance, state: 'idle' }, steady(poolLimit - busy)),
    series(ctx, 'database_pool_connection_limit', { instance }, steady(poolLimit)),
    series(ctx, 'database_pool_queued', { instance }, steady(queued)),
    series(ctx, 'database_changefeed_waiters', { instance }, steady(waiters)),
    series(ctx, 'database_changefeed_waiter_limit', { instance }, steady(waiterLimit)),
  ];
  const [a, b, c, d] = ['replica-a:9464', 'replica-b:9464', 'replica-c:9464', 'replica-d:9464'] as const;
  const queued = 3;
  return {
    name: 'replicas: one down, pools busy or queued, waiters near the cap',
    interval: '1m',
    input_series: [
      ...replica(a, busyAt, 0, waitersAt),
      ...replica(b, busyAt - 1, 0, waitersAt - 1),
      ...replica(c, 2, queued, 0),
      series(ctx, 'up', { instance: d }, steady(0)),
    ],
    alert_rule_test: [
      alertCase(ctx, 'SfdbReplicaDown', '1m', []),
      alertCase(ctx, 'SfdbReplicaDown', '5m', [{ labels: { job: ctx.job, instance: d } }]),
      alertCase(ctx, 'SfdbPoolSaturated', '3m', []),
      alertCase(ctx, 'SfdbPoolSaturated', '10m', [
        { labels: { instance: a, reason: 'busy' }, value: busyAt },
        { labels: { instance: c, reason: 'queued' }, value: queued },
      ]),
      alertCase(ctx, 'SfdbWaiterCapNear', '5m', []),
      alertCase(ctx, 'SfdbWaiterCapNear', '15m', [{ labels: { instance: a }, value: waitersAt }]),
    ],
  };
}

/**
 * Busy: 600 calls/min; UNAVAILABLE on twice the allowed share fires, INVALID_ARGUMENT on a
 * fifth of it and NOT_FOUND (an answer) on half of all calls do not. Idle: below the
 * minimum rate even half the calls failing stays silent.
 */
function errorTests(ctx: Context): Yaml[] {
  const i = 'replica-a:9464';
  const errors = (operation: string, code: string, perMinute: number): Yaml =>
    series(ctx, 'database_request_errors_total', { instance: i, operation, code }, growing(perMinute));
  const busyPerMinute = 600;
  const unavailable = busyPerMinute * ERROR_RATIO_MAX * 2;
  const idlePerMinute = (ERROR_RATIO_MIN_RATE * 60) / 2;
  return [
    {
      name: 'error ratio: a fault code over the share, an answer code and a small share not',
      interval: '1m',
      input_series: [
        ...healthyReplica(ctx, i, MODEL_SHAPES[0] as Shape),
        requests(ctx, i, 'GetNode', 'queues', busyPerMinute / 2),
        requests(ctx, i, 'Resolve', 'net', busyPerMinute / 2),
        errors('GetNode', 'UNAVAILABLE', unavailable),
        errors('GetNode', 'INVALID_ARGUMENT', (busyPerMinute * ERROR_RATIO_MAX) / 5),
        errors('Resolve', 'NOT_FOUND', busyPerMinute / 2),
      ],
      alert_rule_test: [
        alertCase(ctx, 'SfdbErrorRatioHigh', '5m', []),
        alertCase(ctx, 'SfdbErrorRatioHigh', '15m', [{ labels: { code: 'UNAVAILABLE' }, value: unavailable / busyPerMinute }]),
      ],
    },
    {
      name: 'error ratio: an idle cluster does not divide by tiny numbers',
      interval: '1m',
      input_series: [
        ...healthyReplica(ctx, i, MODEL_SHAPES[0] as Shape),
        requests(ctx, i, 'GetNode', 'queues', idlePerMinute),
        errors('GetNode', 'UNAVAILABLE', idlePerMinute / 2),
      ],
      alert_rule_test: [alertCase(ctx, 'SfdbErrorRatioHigh', '15m', [])],
    },
  ];
}

/** Fails loudly when the budget itself would make a case meaningless. */
function checkPreconditions(budget: LoadBudget): void {
  if (budget.pairs.length < 2) throw new Error('the rule tests need at least two budget pairs');
  for (const p of budget.pairs) {
    if ([STEADY_PROBE, SLOW_PROBE].includes(p.operation) || p.caller_daemon === 'bench') {
      throw new Error(`budget pair ${p.operation}/${p.caller_daemon} collides with a rule-test probe`);
    }
  }
}

/** The promtool test file for renderRules(budget, { job }). */
export function renderRuleTests(budget: LoadBudget, options: { job: string }): string {
  checkPreconditions(budget);
  const ctx: Context = { budget, job: options.job, alerts: new Map(alertSpecs(budget, options.job).map((s) => [s.name, s])) };
  const doc: Yaml = {
    rule_files: [basename(RULES_FILE)],
    evaluation_interval: '1m',
    tests: [modelTest(ctx), pairsTest(ctx), ...secondsTests(ctx), ...blindTests(ctx), replicasTest(ctx), ...errorTests(ctx)],
  };
  return `${generatedHeader(budget, `promtool tests for ${basename(RULES_FILE)}`)}\n${toYaml(doc)}\n`;
}
