// A name resolver for the new-replica check: `sfdbfaults:///<pool>` resolves to the
// addresses of a pool kept here, and — like DNS — a client learns of a change only when
// its channel asks again (grpc-js re-resolves when a connection goes away, e.g. on the
// GOAWAY of a max-connection-age). So a replica added to the pool receives traffic only
// once connections age out: the behaviour SFDB_MAX_CONNECTION_AGE_MS exists for, on
// loopback, where a DNS name with several records cannot be made. Like grpc-js's DNS
// resolver it answers at most once per `minIntervalMs` (DNS: 30 s,
// grpc.dns_min_time_between_resolutions_ms) and defers a request that comes sooner: a
// channel asks again on every connection that leaves READY, and would otherwise spin.
import * as grpc from '@grpc/grpc-js';

export const SCHEME = 'sfdbfaults';

interface Endpoint {
  addresses: { host: string; port: number }[];
}

interface Pool {
  addresses: { host: string; port: number }[];
  minIntervalMs: number;
  /** How many times a channel asked for the pool's addresses. */
  resolutions: number;
}

const pools = new Map<string, Pool>();
let registered = false;

function poolOf(path: string): Pool {
  const name = path.replace(/^\/+/, '');
  let pool = pools.get(name);
  if (!pool) {
    pool = { addresses: [], minIntervalMs: 1000, resolutions: 0 };
    pools.set(name, pool);
  }
  return pool;
}

class PoolResolver implements grpc.experimental.Resolver {
  private readonly pool: Pool;
  private timer: NodeJS.Timeout | undefined;
  private pending = false;
  private destroyed = false;

  constructor(
    target: { path: string },
    private readonly listener: grpc.experimental.ResolverListener,
  ) {
    this.pool = poolOf(target.path);
  }

  updateResolution(): void {
    this.destroyed = false;
    if (this.timer) this.pending = true;
    else this.resolveNow();
  }

  private resolveNow(): void {
    this.pool.resolutions += 1;
    const endpoints: Endpoint[] = this.pool.addresses.map((a) => ({ addresses: [a] }));
    // Never synchronously (the interface's contract).
    process.nextTick(() => {
      if (!this.destroyed) this.listener({ ok: true, value: endpoints }, {}, null, '');
    });
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.pending && !this.destroyed) {
        this.pending = false;
        this.resolveNow();
      }
    }, this.pool.minIntervalMs);
    this.timer.unref();
  }

  destroy(): void {
    this.destroyed = true;
    this.pending = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  static getDefaultAuthority(target: { path: string }): string {
    return target.path.replace(/^\/+/, '');
  }
}

/** Registers the scheme once per process. */
function register(): void {
  if (registered) return;
  grpc.experimental.registerResolver(SCHEME, PoolResolver);
  registered = true;
}

/**
 * Sets the pool's addresses (`127.0.0.1:port`) and its rate limit; channels see them at
 * their next resolution. Answers the target to dial.
 */
export function setPool(name: string, addresses: readonly string[], minIntervalMs = 1000): string {
  register();
  const pool = poolOf(name);
  pool.minIntervalMs = minIntervalMs;
  pool.addresses = addresses.map((a) => {
    const i = a.lastIndexOf(':');
    return { host: a.slice(0, i), port: Number(a.slice(i + 1)) };
  });
  return `${SCHEME}:///${name}`;
}

export function resolutions(name: string): number {
  return poolOf(name).resolutions;
}
