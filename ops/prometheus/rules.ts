// Prometheus recording rules and alerts for the tier, rendered from the committed load
// budget (proto/runtime/budget.ts) so the ceilings Prometheus checks are the ones CI and `sf-ctl
// load` check. The text is YAML written by ./yaml.ts, byte-stable.
import { CHANGE_COMMIT, CHANGE_COUNTER, CHANGE_LABEL, QUERY_SECONDS_COUNTER } from '@sfdb/proto/runtime/budget';
import type { LoadBudget, PairBudget, RateModel, Shape } from '@sfdb/proto/runtime/budget';
import { BUDGET_FILES } from '../budget.js';
import { scalar, toYaml } from './yaml.js';
import type { Yaml } from './yaml.js';

/** The job the shipped scrape configuration gives the tier's replicas. */
export const SFDB_JOB = 'sf-database';
export const RULES_FILE = 'ops/prometheus/sf-database-rules.yaml';
export const GENERATE_COMMAND = 'npm run ops:rules';

/** Recording rule names; the dashboard reads them. */
export const RECORDED = {
  pairRate: 'operation_caller_daemon:database_requests:rate5m',
  nodesLive: 'sfdb:cluster_nodes_live:max',
  instances: 'sfdb:cluster_instances:max',
  /** The cluster's change rate: change rows the replicas committed, per second. */
  changes: 'sfdb:changefeed_commits:rate5m',
  /** churn: the change rate above the quiet cluster's of this size (the budget's changeRate), at least 0. */
  churn: 'sfdb:cluster_churn:rate5m',
  expected: 'operation_caller_daemon:sfdb_budget_expected:rate',
  ceiling: 'operation_caller_daemon:sfdb_budget_ceiling:rate',
  /** MariaDB seconds/s a pair's calls cause (database_request_query_seconds_total), every replica together. */
  pairSeconds: 'operation_caller_daemon:database_request_query_seconds:rate5m',
  expectedSeconds: 'operation_caller_daemon:sfdb_budget_expected_seconds:rate',
  secondsCeiling: 'operation_caller_daemon:sfdb_budget_seconds_ceiling:rate',
} as const;

/** The comment every generated file starts with. */
export function generatedHeader(budget: LoadBudget, what: string): string {
  const when = `${budget.derivation.derivedAt}, ${budget.derivation.mode} mode`.replace(/[\r\n]/g, ' ');
  return [
    `# ${what}: generated from ${BUDGET_FILES.feed} (derived ${when}) by \`${GENERATE_COMMAND}\`.`,
    '# Do not edit: change the budget or ops/prometheus/*.ts and run the command again.',
  ].join('\n');
}

// ---- PromQL ----------------------------------------------------------------------------

/** A PromQL string literal: Go escapes, which JSON's are a subset of. */
const promString = (s: string): string => JSON.stringify(s);

/** `metric{job="…",…}`; extra matchers come rendered (`state="busy"`, `code!~"…"`). */
function selector(metric: string, job: string, ...matchers: string[]): string {
  return `${metric}{${[`job=${promString(job)}`, ...matchers].join(',')}}`;
}

const eq = (label: string, value: string): string => `${label}=${promString(value)}`;

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** ` + k * scalar(x)`, or ` - |k| * scalar(x)`: same float result, reads as the model. */
function term(coefficient: number, recorded: string): string {
  const sign = coefficient < 0 ? '-' : '+';
  return ` ${sign} ${scalar(Math.abs(coefficient))} * scalar(${recorded})`;
}

/**
 * The pair's model as an instant vector. Every term is always present, so the series exists
 * even when the cluster size is unknown (NaN): the unbudgeted alert can still tell a
 * budgeted pair from an unbudgeted one, and a NaN ceiling is never exceeded.
 */
export function expectedExpr(pair: RateModel, budget?: Pick<LoadBudget, 'changeRate'>): string {
  let model = `${scalar(pair.cluster)}${term(pair.perNode, RECORDED.nodesLive)}${term(pair.perInstance, RECORDED.instances)}`;
  // The churn terms where the budget has them (a quiet budget renders as before).
  if (budget?.changeRate && pair.perChurn) model += term(pair.perChurn, RECORDED.churn);
  if (budget?.changeRate && pair.perNodeChurn) model += `${term(pair.perNodeChurn, RECORDED.nodesLive)} * scalar(${RECORDED.churn})`;
  return `clamp_min(vector(${model}), 0)`;
}

/** What the expected rule computes, in the same float operations (what promtool must see). */
export function expectedAsRecorded(pair: RateModel, shape: Shape, budget?: Pick<LoadBudget, 'changeRate'>): number {
  let v = pair.cluster + pair.perNode * shape.nodes + pair.perInstance * shape.instances;
  const churn = shape.churn ?? 0;
  if (budget?.changeRate && pair.perChurn) v += pair.perChurn * churn;
  if (budget?.changeRate && pair.perNodeChurn) v += pair.perNodeChurn * shape.nodes * churn;
  return Math.max(0, v);
}

/**
 * churn = max(0, changes − quiet change rate at this size). The change rate is 0 when no
 * replica reports the feed counter (or vector(0)), so a cluster without it is judged quiet.
 */
export function churnExpr(budget: LoadBudget): string | undefined {
  const m = budget.changeRate;
  if (!m) return undefined;
  const quiet = `${scalar(m.cluster)}${term(m.perNode, RECORDED.nodesLive)}${term(m.perInstance, RECORDED.instances)}`;
  return `clamp_min(vector(scalar(${RECORDED.changes}) - (${quiet})), 0)`;
}

/**
 * max(e × factor, e + floor) = e + max(e × (factor − 1), floor): PromQL has no two-argument
 * max of vectors, but clamp_min is a max against a scalar.
 */
export function ceilingExpr(budget: LoadBudget): string {
  return headroomExpr(RECORDED.expected, budget.ceiling.factor, budget.ceiling.floor);
}

/** What the ceiling rule computes, in the same float operations. */
export function ceilingAsRecorded(budget: LoadBudget, pair: PairBudget, shape: Shape): number {
  return headroom(expectedAsRecorded(pair, shape, budget), budget.ceiling.factor, budget.ceiling.floor);
}

/** The pairs with a seconds model, when the budget has a seconds floor to judge them by. */
export function secondsPairs(budget: LoadBudget): (PairBudget & { seconds: RateModel })[] {
  if (budget.ceiling.secondsFloor === undefined) return [];
  return budget.pairs.filter((p): p is PairBudget & { seconds: RateModel } => p.seconds !== undefined);
}

/** The seconds ceiling (proto/runtime/budget.ts secondsCeilingOf): the call ceiling's rule over the seconds model, with secondsFloor. */
export function secondsCeilingExpr(budget: LoadBudget): string {
  return headroomExpr(RECORDED.expectedSeconds, budget.ceiling.factor, budget.ceiling.secondsFloor ?? 0);
}

/** What the seconds ceiling rule computes, in the same float operations. */
export function secondsCeilingAsRecorded(budget: LoadBudget, seconds: RateModel, shape: Shape): number {
  return headroom(expectedAsRecorded(seconds, shape, budget), budget.ceiling.factor, budget.ceiling.secondsFloor ?? 0);
}

/** The budget's headroom rule over the recorded expectation `e`: e + max(e × (factor − 1), floor). */
function headroomExpr(e: string, factor: number, floor: number): string {
  return `${e} + clamp_min(${e} * ${scalar(factor - 1)}, ${scalar(floor)})`;
}

/** headroomExpr's value for expectation `e`, in the same float operations. */
function headroom(e: number, factor: number, floor: number): number {
  return e + Math.max(e * (factor - 1), floor);
}

function loadRules(budget: LoadBudget, job: string): Yaml[] {
  const perPair = budget.pairs.map((pair) => ({
    record: RECORDED.expected,
    expr: expectedExpr(pair, budget),
    labels: { operation: pair.operation, caller_daemon: pair.caller_daemon },
  }));
  return [
    { record: RECORDED.pairRate, expr: `sum by (operation, caller_daemon) (rate(${selector('database_requests_total', job)}[5m]))` },
    // Every replica reports the same cluster size: max() rather than sum().
    { record: RECORDED.nodesLive, expr: `max(${selector('database_cluster_nodes', job, eq('state', 'live'))})` },
    { record: RECORDED.instances, expr: `max(${selector('database_cluster_instances', job)})` },
    ...churnRules(budget, job),
    ...perPair,
    // One rule for every pair: rules of a group run in order, so it reads this evaluation's expectations.
    { record: RECORDED.ceiling, expr: ceilingExpr(budget) },
    ...secondsRules(budget, job),
  ];
}

/** MariaDB seconds/s by pair, and each seconds model's expectation and ceiling (the pairs that carry one). */
function secondsRules(budget: LoadBudget, job: string): Yaml[] {
  const pairs = secondsPairs(budget);
  if (pairs.length === 0) return [];
  return [
    { record: RECORDED.pairSeconds, expr: `sum by (operation, caller_daemon) (rate(${selector(QUERY_SECONDS_COUNTER, job)}[5m]))` },
    ...pairs.map((pair) => ({
      record: RECORDED.expectedSeconds,
      expr: expectedExpr(pair.seconds, budget),
      labels: { operation: pair.operation, caller_daemon: pair.caller_daemon },
    })),
    { record: RECORDED.secondsCeiling, expr: secondsCeilingExpr(budget) },
  ];
}

/** The change rate and churn rules, when the budget has a churn model (before the pairs that read them). */
function churnRules(budget: LoadBudget, job: string): Yaml[] {
  const churn = churnExpr(budget);
  if (churn === undefined) return [];
  return [
    { record: RECORDED.changes, expr: `sum(rate(${selector(CHANGE_COUNTER, job, eq(CHANGE_LABEL, CHANGE_COMMIT))}[5m])) or vector(0)` },
    { record: RECORDED.churn, expr: churn },
  ];
}

// ---- Alerts ----------------------------------------------------------------------------

export type Severity = 'warning' | 'critical';
/** How an annotation shows $value: calls/s, a whole count, or a share. */
export type ValueFormat = 'rate' | 'count' | 'ratio';
/** Gives the text for a label: a Go template reference when rendered, the value in tests. */
export type LabelText = (label: string) => string;

export interface AlertSpec {
  name: string;
  expr: string;
  for: string;
  severity: Severity;
  value?: ValueFormat;
  summary: (label: LabelText, value: string) => string;
  description: (label: LabelText, value: string) => string;
}

/**
 * gRPC codes that are answers, not faults: NOT_FOUND (a read of something absent),
 * ALREADY_EXISTS (a create that lost to another), FAILED_PRECONDITION (a fenced lease or a
 * compare-and-set that did not match — the protocol working), ABORTED (an optimistic
 * conflict the caller retries), CANCELLED (the caller gave up, e.g. a daemon stopping its
 * long-polls). Counting them would page on normal traffic.
 */
export const ANSWER_CODES = ['NOT_FOUND', 'ALREADY_EXISTS', 'FAILED_PRECONDITION', 'ABORTED', 'CANCELLED'] as const;
/** Below this many calls/s in all, an error share is noise (a 3-node cluster runs ~5/s). */
export const ERROR_RATIO_MIN_RATE = 1;
export const ERROR_RATIO_MAX = 0.05;
export const POOL_BUSY_SHARE = 0.9;
export const WAITER_SHARE = 0.8;

/** The daemons the budget covers; other callers (bench, sf-ctl, unknown) are no daemon. */
export function budgetCallers(budget: LoadBudget): string[] {
  return [...new Set(budget.pairs.map((p) => p.caller_daemon))].sort();
}

function pairAlerts(budget: LoadBudget, job: string): AlertSpec[] {
  const callers = budgetCallers(budget).map(escapeRegex).join('|');
  return [
    {
      name: 'SfdbPairOverCeiling',
      expr: `${RECORDED.pairRate}\n  > on (operation, caller_daemon)\n${RECORDED.ceiling}`,
      for: '10m',
      severity: 'warning',
      value: 'rate',
      summary: (l) => `${l('operation')} from ${l('caller_daemon')} is over its load budget ceiling`,
      description: (l, v) =>
        `${l('caller_daemon')} calls ${l('operation')} at ${v}/s (5m), above ${RECORDED.ceiling} for this cluster's size. ` +
        `A daemon change, a retry loop or a wake-up storm; compare with ${RECORDED.expected}.`,
    },
    ...(secondsPairs(budget).length === 0
      ? []
      : [
          {
            name: 'SfdbPairOverSecondsCeiling',
            expr: `${RECORDED.pairSeconds}\n  > on (operation, caller_daemon)\n${RECORDED.secondsCeiling}`,
            for: '10m',
            severity: 'warning' as const,
            value: 'rate' as const,
            summary: (l: LabelText) => `${l('operation')} from ${l('caller_daemon')} costs MariaDB more seconds than its load budget allows`,
            description: (l: LabelText, v: string) =>
              `The ${l('operation')} calls of ${l('caller_daemon')} cause ${v} s of MariaDB statement time per second (5m), above ${RECORDED.secondsCeiling} ` +
              `for this cluster's size: its statements got slower (a lock held, a scan grown, a plan changed) whether or not its calls grew. ` +
              `The slow-statement log lines of that pair name the query function (database_slow_statements_total).`,
          },
        ]),
    {
      name: 'SfdbUnbudgetedPair',
      expr:
        `(\n  ${RECORDED.pairRate}{caller_daemon=~${promString(callers)}}\n  unless on (operation, caller_daemon)\n  ${RECORDED.expected}\n)\n` +
        `>= ${scalar(budget.unbudgetedSteadyRate)}`,
      for: '15m',
      severity: 'warning',
      value: 'rate',
      summary: (l) => `${l('operation')} from ${l('caller_daemon')} has a steady rate but no load budget`,
      description: (l, v) =>
        `${l('caller_daemon')} calls ${l('operation')} at ${v}/s (5m), a pair ${BUDGET_FILES.feed} does not cover. ` +
        `Re-derive the budget (npm run budget:derive) if the call is intended.`,
    },
    {
      name: 'SfdbLoadModelBlind',
      expr: [
        `absent(${selector('up', job)} == 1)`,
        `or absent(max(${selector('database_cluster_nodes', job, eq('state', 'live'))}))`,
        `or absent(max(${selector('database_cluster_instances', job)}))`,
      ].join('\n'),
      for: '10m',
      severity: 'warning',
      summary: () => 'The sf-database load model cannot be computed',
      description: () =>
        'No sf-database target is up, or no replica reports the cluster size (database_cluster_nodes, database_cluster_instances): ' +
        'the budget alerts cannot fire.',
    },
  ];
}

function replicaAlerts(job: string): AlertSpec[] {
  const perReplica = (metric: string, ...matchers: string[]): string => `sum by (instance) (${selector(metric, job, ...matchers)})`;
  const busy = `${perReplica('database_pool_connections', eq('state', 'busy'))}\n    >= ${POOL_BUSY_SHARE} * ${perReplica('database_pool_connection_limit')}`;
  const queued = `${perReplica('database_pool_queued')} > 0`;
  return [
    {
      name: 'SfdbReplicaDown',
      expr: `${selector('up', job)} == 0`,
      for: '2m',
      severity: 'critical',
      summary: (l) => `sf-database replica ${l('instance')} is down`,
      description: (l) => `Prometheus cannot scrape ${l('instance')}: its daemons fail over to the other replicas, which carry its load.`,
    },
    {
      // Two reasons, two alerts per replica: the value means connections for one, calls for the other.
      name: 'SfdbPoolSaturated',
      expr: `label_replace(\n  ${busy},\n  "reason", "busy", "", ""\n)\nor\nlabel_replace(${queued}, "reason", "queued", "", "")`,
      for: '5m',
      severity: 'warning',
      value: 'count',
      summary: (l) => `sf-database replica ${l('instance')} is short of MariaDB connections (${l('reason')})`,
      description: (l, v) =>
        `${l('instance')} has had ${v} ${l('reason')} for 5m (busy: connections in use, at least ${POOL_BUSY_SHARE * 100} % of ` +
        `database_pool_connection_limit; queued: calls waiting for a connection). Look for long transactions, or raise SFDB_POOL_SIZE.`,
    },
    {
      name: 'SfdbWaiterCapNear',
      expr: `${perReplica('database_changefeed_waiters')}\n  >= ${WAITER_SHARE} * ${perReplica('database_changefeed_waiter_limit')}`,
      for: '10m',
      severity: 'warning',
      value: 'count',
      summary: (l) => `sf-database replica ${l('instance')} is near its change-feed waiter cap`,
      description: (l, v) =>
        `${l('instance')} holds ${v} WaitForChanges long-polls, at least ${WAITER_SHARE * 100} % of database_changefeed_waiter_limit; ` +
        'at the cap it refuses new ones. Spread callers over more replicas, or raise SFDB_CHANGEFEED_MAX_WAITERS.',
    },
  ];
}

function errorAlert(job: string): AlertSpec {
  const faults = selector('database_request_errors_total', job, `code!~${promString(ANSWER_CODES.join('|'))}`);
  const requests = `sum (rate(${selector('database_requests_total', job)}[5m]))`;
  return {
    name: 'SfdbErrorRatioHigh',
    expr:
      `(\n  sum by (code) (rate(${faults}[5m]))\n  / ignoring (code) group_left\n  ${requests}\n) > ${ERROR_RATIO_MAX}\n` +
      `and on ()\n${requests} >= ${ERROR_RATIO_MIN_RATE}`,
    for: '10m',
    severity: 'critical',
    value: 'ratio',
    summary: (l) => `sf-database answers ${l('code')} to many calls`,
    description: (l, v) =>
      `${v} of all sf-database calls (5m) end with ${l('code')}, more than ${ERROR_RATIO_MAX * 100} %. ` +
      'See the error counters by operation (database_request_errors_total) and the replicas\' logs.',
  };
}

/** Every alert, in the order written. */
export function alertSpecs(budget: LoadBudget, job: string): AlertSpec[] {
  return [...pairAlerts(budget, job), ...replicaAlerts(job), errorAlert(job)];
}

const VALUE_TEMPLATES: Record<ValueFormat, string> = {
  rate: '{{ printf "%.3f" $value }}',
  count: '{{ printf "%.0f" $value }}',
  ratio: '{{ humanizePercentage $value }}',
};

/** An alert's annotations, given how labels and the value are shown. */
export function annotationsOf(spec: AlertSpec, label: LabelText, value: string): Record<string, string> {
  return {
    summary: spec.summary(label, value),
    description: spec.description(label, value),
    runbook: `docs/alerts.md#${spec.name.toLowerCase()}`,
  };
}

function alertRule(spec: AlertSpec): Yaml {
  const value = spec.value ? VALUE_TEMPLATES[spec.value] : '';
  return {
    alert: spec.name,
    expr: spec.expr,
    for: spec.for,
    labels: { severity: spec.severity },
    annotations: annotationsOf(spec, (name) => `{{ $labels.${name} }}`, value),
  };
}

/** The rules file: recording rules for the dashboard and the budget, then the alerts. */
export function renderRules(budget: LoadBudget, options: { job: string }): string {
  const groups: Yaml = [
    { name: 'sf-database-load', rules: loadRules(budget, options.job) },
    { name: 'sf-database-alerts', rules: alertSpecs(budget, options.job).map(alertRule) },
  ];
  return `${generatedHeader(budget, 'Prometheus rules for sf-database')}\n${toYaml({ groups })}\n`;
}
