// The bounded wait of integration and chaos tests: a condition polled until it holds or
// its bound passes, failing with what it last saw. On a loaded 2-core machine a state
// arrives later than it would alone; a single read right after a fault, or a fixed
// sleep taken as proof, then fails (or passes) by chance.

/** What one look at a condition saw: `ok` when it holds, `seen` to report when it never does. */
export interface Look {
  ok: boolean;
  seen: unknown;
}

/**
 * Looks at `check` every `everyMs` until it holds; fails after `ms` naming `what` and
 * what the last look saw. A look that throws is a look that saw the error.
 */
export async function waitFor(what: string, ms: number, check: () => Promise<Look> | Look, everyMs = 100): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    let seen: unknown;
    try {
      const look = await check();
      if (look.ok) return;
      seen = look.seen;
    } catch (err) {
      seen = `${(err as Error).name}: ${(err as Error).message}`;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms; last seen ${typeof seen === 'string' ? seen : JSON.stringify(seen)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
