// `npm run ops:rules`: writes the Prometheus rules and their promtool tests from the
// committed feed-mode budget. `--check` writes nothing and exits 1 when a committed file
// is not what the budget renders (CI; a budget re-derived without this run).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUDGET_FILES } from '../budget.js';
import type { LoadBudget } from '../budget.js';
import { renderRuleTests, RULE_TESTS_FILE } from './rules-test.js';
import { GENERATE_COMMAND, renderRules, RULES_FILE, SFDB_JOB } from './rules.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function rendered(budget: LoadBudget): [string, string][] {
  return [
    [RULES_FILE, renderRules(budget, { job: SFDB_JOB })],
    [RULE_TESTS_FILE, renderRuleTests(budget, { job: SFDB_JOB })],
  ];
}

function committed(file: string): string | undefined {
  try {
    return readFileSync(join(ROOT, file), 'utf8');
  } catch {
    return undefined;
  }
}

function main(): void {
  const budget = JSON.parse(readFileSync(join(ROOT, BUDGET_FILES.feed), 'utf8')) as LoadBudget;
  const files = rendered(budget);
  if (process.argv.includes('--check')) {
    const stale = files.filter(([file, text]) => committed(file) !== text).map(([file]) => file);
    if (stale.length > 0) {
      console.error(`out of date with ${BUDGET_FILES.feed}: ${stale.join(', ')}; run \`${GENERATE_COMMAND}\``);
      process.exit(1);
    }
    return;
  }
  for (const [file, text] of files) {
    writeFileSync(join(ROOT, file), text);
    console.log(`wrote ${file}`);
  }
}

main();
