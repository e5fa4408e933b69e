// The Prometheus rules: the committed files are what the budget renders, promtool accepts
// them and their unit tests pass, and the numbers those tests expect are the budget's own
// (proto/runtime/budget.ts), so Prometheus, CI and `sf-ctl load` judge a pair alike.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BUDGET_FILES } from '../../ops/budget.js';
import { ceilingOf, expectedRate } from '../../proto/runtime/budget.js';
import type { LoadBudget } from '../../proto/runtime/budget.js';
import { MODEL_SHAPES, RULE_TESTS_FILE, renderRuleTests } from '../../ops/prometheus/rules-test.js';
import { RECORDED, RULES_FILE, SFDB_JOB, ceilingAsRecorded, churnExpr, expectedAsRecorded, expectedExpr, renderRules } from '../../ops/prometheus/rules.js';
import { findBinary } from '../../server/embedded/mariadb.js';

const run = promisify(execFile);
const budget = JSON.parse(readFileSync(BUDGET_FILES.feed, 'utf8')) as LoadBudget;
const PROMTOOL_MISSING = 'promtool not found: install it with `apt-get install -y prometheus` (CI does)';

/** promtool's output; a failing run throws with it, so the assertion shows what failed. */
async function promtool(cwd: string, ...args: string[]): Promise<string> {
  const bin = findBinary('promtool');
  if (!bin) throw new Error(PROMTOOL_MISSING);
  try {
    const { stdout, stderr } = await run(bin, args, { cwd });
    return `${stdout}${stderr}`;
  } catch (err) {
    const e = err as { code?: unknown; stdout?: string; stderr?: string };
    throw new Error(`promtool ${args.join(' ')} exited ${String(e.code)}:\n${e.stdout ?? ''}${e.stderr ?? ''}`, { cause: err });
  }
}

describe('prometheus rules', () => {
  it('the committed files are what the budget renders (npm run ops:rules)', () => {
    expect(readFileSync(RULES_FILE, 'utf8')).toBe(renderRules(budget, { job: SFDB_JOB }));
    expect(readFileSync(RULE_TESTS_FILE, 'utf8')).toBe(renderRuleTests(budget, { job: SFDB_JOB }));
  });

  it('promtool checks the rules and passes their unit tests', async () => {
    const dir = resolve(dirname(RULES_FILE));
    expect(await promtool(dir, 'check', 'rules', basename(RULES_FILE))).toContain('SUCCESS');
    expect(await promtool(dir, 'test', 'rules', basename(RULE_TESTS_FILE))).toContain('SUCCESS');
  });

  it('quotes label values that YAML, PromQL strings and regexes would misread', async () => {
    const model = { cluster: 0.1, perNode: 0.05, perInstance: 0, r2: 1 };
    const awkward: LoadBudget = {
      ...budget,
      pairs: [
        { operation: 'Get"Node\\: #x', caller_daemon: 'q.ue|ues', ...model },
        { operation: "it's {{ $value }}", caller_daemon: 'n(e)t*', ...model },
      ],
    };
    const dir = mkdtempSync(join(tmpdir(), 'sfdb-rules-'));
    try {
      writeFileSync(join(dir, basename(RULES_FILE)), renderRules(awkward, { job: 'sf "db"' }));
      writeFileSync(join(dir, basename(RULE_TESTS_FILE)), renderRuleTests(awkward, { job: 'sf "db"' }));
      expect(await promtool(dir, 'check', 'rules', basename(RULES_FILE))).toContain('SUCCESS');
      expect(await promtool(dir, 'test', 'rules', basename(RULE_TESTS_FILE))).toContain('SUCCESS');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(MODEL_SHAPES)('the recorded expectation and ceiling are the budget model at %o', (shape) => {
    for (const pair of budget.pairs) {
      const key = `${pair.operation}/${pair.caller_daemon}`;
      expect(expectedAsRecorded(pair, shape), key).toBeCloseTo(expectedRate(pair, shape), 12);
      expect(ceilingAsRecorded(budget, pair, shape), key).toBeCloseTo(ceilingOf(budget, pair, shape), 12);
    }
  });

  it('the ceiling rule takes whichever of factor and floor is larger', () => {
    const factorAndFloor: LoadBudget = { ...budget, ceiling: { factor: 1.5, floor: 0.2 } };
    const pair = (cluster: number) => ({ operation: 'Op', caller_daemon: 'queues', cluster, perNode: 0, perInstance: 0, r2: 1 });
    const shape = { nodes: 3, instances: 4 };
    // expected 0.1: the floor wins (0.3 > 0.15); expected 4: the factor wins (6 > 4.2).
    expect(ceilingAsRecorded(factorAndFloor, pair(0.1), shape)).toBeCloseTo(0.3, 12);
    expect(ceilingAsRecorded(factorAndFloor, pair(4), shape)).toBeCloseTo(6, 12);
  });

  it('adds the churn rules and terms only for a budget with a change-rate model', () => {
    const pair = { operation: 'GetObjectState', caller_daemon: 'sidechannel', cluster: 0.5, perNode: 0.25, perInstance: 0, perChurn: 2, perNodeChurn: -0.125, r2: 1 };
    const quiet: LoadBudget = { ...budget, changeRate: undefined, pairs: [pair] };
    const churned: LoadBudget = { ...budget, changeRate: { cluster: 1, perNode: 0.5, perInstance: 0.25 }, pairs: [pair] };
    expect(churnExpr(quiet)).toBeUndefined();
    expect(renderRules(quiet, { job: SFDB_JOB })).not.toContain(RECORDED.churn);
    expect(expectedExpr(pair, quiet)).not.toContain(RECORDED.churn);
    expect(churnExpr(churned)).toBe(
      `clamp_min(vector(scalar(${RECORDED.changes}) - (1 + 0.5 * scalar(${RECORDED.nodesLive}) + 0.25 * scalar(${RECORDED.instances}))), 0)`,
    );
    const rules = renderRules(churned, { job: SFDB_JOB });
    expect(rules).toContain(`sum(rate(database_changefeed_changes_total{job=\\"${SFDB_JOB}\\",via=\\"commit\\"}[5m])) or vector(0)`);
    // The churn rules come before the pairs that read them.
    expect(rules.indexOf(RECORDED.churn)).toBeLessThan(rules.indexOf(RECORDED.expected));
    expect(expectedExpr(pair, churned)).toBe(
      `clamp_min(vector(0.5 + 0.25 * scalar(${RECORDED.nodesLive}) + 0 * scalar(${RECORDED.instances}) + 2 * scalar(${RECORDED.churn}) - 0.125 * scalar(${RECORDED.nodesLive}) * scalar(${RECORDED.churn})), 0)`,
    );
    const shape = { nodes: 4, instances: 2, churn: 3 };
    expect(expectedAsRecorded(pair, shape, churned)).toBe(0.5 + 0.25 * 4 + 0 * 2 + 2 * 3 - 0.125 * 4 * 3);
    expect(expectedAsRecorded(pair, shape, churned)).toBeCloseTo(expectedRate(pair, shape), 12);
    expect(expectedAsRecorded(pair, { nodes: 4, instances: 2 }, churned)).toBe(expectedAsRecorded(pair, { nodes: 4, instances: 2 }, quiet));
  });
});
