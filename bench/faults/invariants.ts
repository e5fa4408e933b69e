// The rules the ledger alone must satisfy, whatever failed in between:
// - claims: no epoch of an item acknowledged twice; claims of an item, in epoch order, do
//   not overlap in database time (a later claim starts only after the earlier one's lease
//   ran out: the recovery sweep requeues expired claims only); no item claimed again
//   after a Resolve of it was acknowledged; every acknowledged Resolve names a claim the
//   tier acknowledged;
// - leases: a token is acknowledged to one holder only; in token order, holds do not
//   overlap in database time (a new token starts after every hold of the previous one
//   ended), so tokens grow with time and are never reused;
// - cluster config: no version of a key acknowledged twice (two writers at one expected
//   version), and each writer's versions of a key grow.
import type { Ack, ClaimAck, ConfigAck, LeaseAck, ResolveAck } from './ledger.js';

export interface Violation {
  rule: 'duplicate-epoch' | 'two-owners' | 'claim-after-resolve' | 'resolve-without-claim' | 'token-reused' | 'lease-overlap' | 'config-version-reused' | 'config-version-order';
  detail: string;
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

const byBigInt = (a: string, b: string): number => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);
const iso = (us: number): string => new Date(Math.floor(us / 1000)).toISOString();

export function checkClaims(acks: readonly Ack[]): Violation[] {
  const out: Violation[] = [];
  const claims = acks.filter((a): a is ClaimAck => a.kind === 'claim');
  const resolves = acks.filter((a): a is ResolveAck => a.kind === 'resolve');
  const claimed = new Set(claims.map((c) => `${c.id}@${c.epoch}`));
  for (const r of resolves) {
    if (!claimed.has(`${r.id}@${r.epoch}`)) out.push({ rule: 'resolve-without-claim', detail: `item ${r.id} resolved at epoch ${r.epoch}, never claimed at it` });
  }
  const resolvedAt = new Map<string, string>();
  for (const r of resolves) {
    const prev = resolvedAt.get(r.id);
    if (prev === undefined || byBigInt(r.epoch, prev) < 0) resolvedAt.set(r.id, r.epoch);
  }
  for (const [id, list] of groupBy(claims, (c) => c.id)) {
    const sorted = [...list].sort((a, b) => byBigInt(a.epoch, b.epoch));
    for (let i = 0; i < sorted.length; i++) {
      const cur = sorted[i] as ClaimAck;
      const done = resolvedAt.get(id);
      if (done !== undefined && byBigInt(cur.epoch, done) > 0) {
        out.push({ rule: 'claim-after-resolve', detail: `item ${id} claimed by ${cur.holder} at epoch ${cur.epoch} after its Resolve at epoch ${done} was acknowledged` });
      }
      const prev = sorted[i - 1];
      if (!prev) continue;
      if (prev.epoch === cur.epoch) {
        out.push({ rule: 'duplicate-epoch', detail: `item ${id} epoch ${cur.epoch} acknowledged to ${prev.holder} and to ${cur.holder}` });
        continue;
      }
      if (cur.startUs < prev.expiresUs) {
        out.push({
          rule: 'two-owners',
          detail:
            `item ${id}: ${cur.holder} claimed it at epoch ${cur.epoch} at ${iso(cur.startUs)} while ${prev.holder}'s claim at epoch ` +
            `${prev.epoch} ran until ${iso(prev.expiresUs)} (database time)`,
        });
      }
    }
  }
  return out;
}

export function checkLeases(acks: readonly Ack[]): Violation[] {
  const out: Violation[] = [];
  const leases = acks.filter((a): a is LeaseAck => a.kind === 'lease');
  for (const [name, list] of groupBy(leases, (l) => l.name)) {
    const tokens = [...groupBy(list, (l) => l.token)].sort(([a], [b]) => byBigInt(a, b));
    for (const [token, holds] of tokens) {
      const holders = [...new Set(holds.map((h) => h.holder))];
      if (holders.length > 1) out.push({ rule: 'token-reused', detail: `lease ${name} token ${token} acknowledged to ${holders.join(' and ')}` });
    }
    for (let i = 1; i < tokens.length; i++) {
      const [prevToken, prevHolds] = tokens[i - 1] as [string, LeaseAck[]];
      const [token, holds] = tokens[i] as [string, LeaseAck[]];
      const prevEnd = Math.max(...prevHolds.map((h) => h.expiresUs));
      const start = Math.min(...holds.map((h) => h.startUs));
      if (start < prevEnd) {
        out.push({
          rule: 'lease-overlap',
          detail: `lease ${name}: token ${token} (${holds[0]?.holder}) from ${iso(start)}, but token ${prevToken} (${prevHolds[0]?.holder}) held until ${iso(prevEnd)}`,
        });
      }
    }
  }
  return out;
}

export function checkConfig(acks: readonly Ack[]): Violation[] {
  const out: Violation[] = [];
  const configs = acks.filter((a): a is ConfigAck => a.kind === 'config');
  for (const [key, list] of groupBy(configs, (c) => c.key)) {
    for (const [version, same] of groupBy(list, (c) => c.version)) {
      if (same.length > 1) out.push({ rule: 'config-version-reused', detail: `config ${key} version ${version} acknowledged to ${same.map((c) => c.client).join(' and ')}` });
    }
    for (const [client, mine] of groupBy(list, (c) => c.client)) {
      for (let i = 1; i < mine.length; i++) {
        const prev = mine[i - 1] as ConfigAck;
        const cur = mine[i] as ConfigAck;
        if (byBigInt(cur.version, prev.version) <= 0) {
          out.push({ rule: 'config-version-order', detail: `config ${key}: ${client} got version ${cur.version} after ${prev.version}` });
        }
      }
    }
  }
  return out;
}

export function checkInvariants(acks: readonly Ack[]): Violation[] {
  return [...checkClaims(acks), ...checkLeases(acks), ...checkConfig(acks)];
}
