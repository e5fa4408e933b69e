// Per-caller rate limits: a token bucket per caller node, and one per (caller node, caller
// daemon), so one runaway daemon can neither starve its node's other daemons nor take
// every MariaDB connection. A call over either limit is refused before its handler runs
// (no statement) with RESOURCE_EXHAUSTED and a pushback: the time until a token is due,
// which the client honours before it retries.
//
// A call without a caller node is limited by its peer's address instead, so leaving the
// header out does not escape the limit.

export interface RateLimitSettings {
  /** Calls per second per caller node; 0 = no limit. */
  nodeRps: number;
  nodeBurst: number;
  /** Calls per second per (caller node, caller daemon); 0 = no limit. */
  daemonRps: number;
  daemonBurst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** A set of token buckets of one rate, by key. Full buckets are forgotten: they equal absent ones. */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly rps: number,
    private readonly burst: number,
    /** Forget full buckets once more than this many are held (hostile keys cost no memory for long). */
    private readonly sweepAbove = 10_000,
  ) {}

  /** Takes a token for `key` at time `now` (ms): 0 when granted, else ms until one is due. */
  take(key: string, now: number): number {
    let b = this.buckets.get(key);
    if (b === undefined) {
      if (this.buckets.size >= this.sweepAbove) this.sweep(now);
      b = { tokens: this.burst, at: now };
      this.buckets.set(key, b);
    } else {
      b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) * this.rps) / 1000);
      b.at = now;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) * 1000) / this.rps);
  }

  /** Gives back a token taken by a call that another limit refused. */
  refund(key: string): void {
    const b = this.buckets.get(key);
    if (b) b.tokens = Math.min(this.burst, b.tokens + 1);
  }

  get size(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.at) * this.rps) / 1000 >= this.burst) this.buckets.delete(key);
    }
  }
}

export interface Verdict {
  /** Which limit refused the call, or undefined when it may run. */
  refusedBy?: 'node' | 'daemon';
  pushbackMs: number;
}

export class CallerRateLimits {
  private readonly nodes: TokenBuckets | undefined;
  private readonly daemons: TokenBuckets | undefined;

  constructor(
    settings: RateLimitSettings,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.nodes = settings.nodeRps > 0 ? new TokenBuckets(settings.nodeRps, Math.max(1, settings.nodeBurst)) : undefined;
    this.daemons = settings.daemonRps > 0 ? new TokenBuckets(settings.daemonRps, Math.max(1, settings.daemonBurst)) : undefined;
  }

  /** `node` is the caller node claim, or '' (then the call's peer stands for it). */
  check(node: string, daemon: string, call: { getPeer(): string }): Verdict {
    if (this.nodes === undefined && this.daemons === undefined) return UNLIMITED;
    const now = this.now();
    const nodeKey = node === '' ? `peer:${peerHost(call.getPeer())}` : node;
    const daemonKey = `${nodeKey}\u0000${daemon}`;
    const daemonWait = this.daemons?.take(daemonKey, now) ?? 0;
    if (daemonWait > 0) return { refusedBy: 'daemon', pushbackMs: daemonWait };
    const nodeWait = this.nodes?.take(nodeKey, now) ?? 0;
    if (nodeWait > 0) {
      this.daemons?.refund(daemonKey);
      return { refusedBy: 'node', pushbackMs: nodeWait };
    }
    return UNLIMITED;
  }
}

const UNLIMITED: Verdict = Object.freeze({ pushbackMs: 0 });

/** 'ipv4:127.0.0.1:5432' / 'ipv6:[::1]:5432' → the host part (ports change per connection). */
export function peerHost(peer: string): string {
  const withoutScheme = peer.replace(/^(ipv4|ipv6|unix):/, '');
  const bracket = /^\[([^\]]+)\]/.exec(withoutScheme);
  if (bracket) return bracket[1] as string;
  const i = withoutScheme.lastIndexOf(':');
  return i > 0 && withoutScheme.indexOf(':') === i ? withoutScheme.slice(0, i) : withoutScheme;
}
