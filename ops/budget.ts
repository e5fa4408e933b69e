// The committed load budgets' files. The budget itself — for every (operation,
// caller_daemon) pair the shipped daemons cause, a rate model fitted from measured runs, a
// ceiling above it, the quiet cluster's change rate and the churn derived from it — is
// proto/runtime/budget.ts, the one home of its types and pure functions (sf-ctl load, the
// Prometheus rules and the tier's admin view import them from there). Derived by `npm run
// budget:derive`, committed as ops/load-budget.json (feed mode, the shipped default) and
// ops/load-budget.anchor.json (the polling fallback), checked by the CI regression run and
// by load tools.

/** Each mode's committed budget, relative to the repository. */
export const BUDGET_FILES = { feed: 'ops/load-budget.json', anchor: 'ops/load-budget.anchor.json' } as const;
