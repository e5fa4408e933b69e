// The load budget: for every (operation, caller_daemon) pair the shipped daemons cause,
// a rate model `cluster + perNode·nodes + perInstance·instances` (calls/s) fitted from
// measured runs, and a ceiling above it. Derived by `npm run budget:derive`, committed as
// ops/load-budget.json (feed mode, the shipped default) and ops/load-budget.anchor.json
// (the polling fallback), checked by the CI regression run and by load tools. The model's
// types and pure functions live in proto/budget.ts (the tier's admin view uses them too).
export * from '../proto/budget.js';

/** Each mode's committed budget, relative to the repository. */
export const BUDGET_FILES = { feed: 'ops/load-budget.json', anchor: 'ops/load-budget.anchor.json' } as const;
