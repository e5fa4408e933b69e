// The client's one delay function: full-jitter exponential backoff.

/** A random delay in [base/2, min(cap, base·2^attempt)]. `random` is injectable for tests. */
export function jitteredDelay(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt));
  const floor = Math.min(ceiling, baseMs / 2);
  return Math.round(floor + random() * (ceiling - floor));
}

/**
 * The wait after a refusal that named a pushback (grpc-retry-pushback-ms): at least the
 * pushback, and up to twice it, at random — so the many callers a shedding replica refused
 * at once do not all come back at once.
 */
export function pushbackDelay(pushbackMs: number, random: () => number = Math.random): number {
  return Math.round(pushbackMs * (1 + random()));
}
