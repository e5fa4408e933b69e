// `npm run ops:rules`: writes the Prometheus rules and their promtool tests from the
// committed feed-mode budget. `--check` writes nothing and exits 1 when a committed file
// is not what the budget renders (CI; a budget re-derived without this run).
import { BUDGET_FILES } from '../budget.js';
import type { LoadBudget } from '@sfdb/proto/runtime/budget';
import { readRepoFile, writeOrCheck } from '../generated.js';
import { renderRuleTests, RULE_TESTS_FILE } from './rules-test.js';
import { GENERATE_COMMAND, renderRules, RULES_FILE, SFDB_JOB } from './rules.js';

const budget = JSON.parse(readRepoFile(BUDGET_FILES.feed)) as LoadBudget;
writeOrCheck(
  [
    [RULES_FILE, renderRules(budget, { job: SFDB_JOB })],
    [RULE_TESTS_FILE, renderRuleTests(budget, { job: SFDB_JOB })],
  ],
  BUDGET_FILES.feed,
  GENERATE_COMMAND,
);
