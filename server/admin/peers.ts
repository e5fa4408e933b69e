// What the admin view asks of the other live replicas, over their HTTP port (the metrics
// address each recorded in the registry): their /admin/api/replica (version, calls in
// flight, waiters) for the Cluster page and their /metrics for the Load page. HTTP only:
// no statement. Each request has a deadline; an unreachable peer is shown as such.
import { performance } from 'node:perf_hooks';
import { Shared } from './reads.js';

/** The longest a peer request may take. */
export const PEER_TIMEOUT_MS = 1500;

/** What a replica says of itself at /admin/api/replica. */
export interface ReplicaInfo {
  replicaId: string;
  version: string;
  inFlight: number;
  waiters: number;
}

export type PeerAnswer<T> = { ok: true; value: T } | { ok: false; error: string };

function reason(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${PEER_TIMEOUT_MS} ms`;
  return (e.cause?.code ?? e.cause?.message ?? e.message).replace(/\s+/g, ' ');
}

export class PeerClient {
  private readonly shared = new Shared();

  /** `token`: this replica's admin token, sent to peers (replicas of one cluster share it). */
  constructor(private readonly token: string) {}

  private async get(address: string, path: string): Promise<string> {
    const headers: Record<string, string> = {};
    if (this.token !== '') headers['authorization'] = `Bearer ${this.token}`;
    const res = await fetch(`http://${address}${path}`, { headers, signal: AbortSignal.timeout(PEER_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.text();
  }

  /** A peer's own account of itself, shared for `ttlMs` (one request per peer per interval). */
  info(address: string, ttlMs: number): Promise<PeerAnswer<ReplicaInfo>> {
    return this.shared.get(`info:${address}`, ttlMs, async () => {
      try {
        const body = JSON.parse(await this.get(address, '/admin/api/replica')) as Partial<ReplicaInfo>;
        return {
          ok: true as const,
          value: {
            replicaId: String(body.replicaId ?? ''),
            version: String(body.version ?? '?'),
            inFlight: Number(body.inFlight ?? NaN),
            waiters: Number(body.waiters ?? NaN),
          },
        };
      } catch (err) {
        return { ok: false as const, error: reason(err) };
      }
    });
  }

  /** A peer's /metrics text, and when (performance.now, halfway) it was answered. */
  async metrics(address: string): Promise<PeerAnswer<{ text: string; at: number }>> {
    const start = performance.now();
    try {
      const text = await this.get(address, '/metrics');
      return { ok: true, value: { text, at: (start + performance.now()) / 2 } };
    } catch (err) {
      return { ok: false, error: reason(err) };
    }
  }
}
