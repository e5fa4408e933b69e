// A fault run as a Markdown table (printed by `npm run bench:faults`, pasted into
// docs/replicas.md) and as the JSON file under bench/results/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeposedHolderResult } from './deposed-holder.js';
import type { Machine } from '../../harness/machine.js';
import { DB_RECOVERY_TARGET_MS } from './db-faults.js';
import type { FaultRunResult, PhaseResult } from './driver.js';

export interface SavedFaultRun {
  command: string;
  date: string;
  machine: Machine;
  loadBefore: string;
  loadAfter: string;
  result: FaultRunResult;
  /** The deposed holder after the phases (deposed-holder.ts), unless --no-deposed. */
  deposed?: DeposedHolderResult;
}

const dash = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : String(v));

export function renderTable(r: FaultRunResult): string {
  const rows = r.phases.map((p) => {
    const failed = p.callsFailed === 0 ? '0' : `${p.callsFailed} (${p.failedByClass.idempotent} / ${p.failedByClass.once} / ${p.failedByClass.read})`;
    const never = p.boundMs !== null ? '**never**' : '—';
    const recover = p.recoverMs === null ? never : String(p.recoverMs);
    const afterEnd = p.recoverAfterEndMs === null ? never : String(p.recoverAfterEndMs);
    const internal = p.failedByCode['INTERNAL'] ?? 0;
    return (
      `| ${p.fault} | ${p.heldMs} | ${p.callsOk} | ${failed} | ${internal} | ${p.late} | ${p.refused} | ${recover} | ${afterEnd} | ${dash(p.boundMs)} | ` +
      `${p.longestGapMs} | ${dash(p.rejoinMs)} | ${p.writesAcked} | ${p.writesLost} |`
    );
  });
  return [
    '| fault | held ms | calls ok | calls failed (idempotent / once / read) | INTERNAL | late | refused | recover ms | after its end ms | bound ms | longest gap ms | rejoin ms | writes acked | writes lost |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

export function renderSummary(r: FaultRunResult): string {
  const o = r.options;
  const lines = [
    `- Load: ${o.clients} clients × ${o.loopsPerClient} write loops + a lease loop each + one sweeper, every client round-robin over both replicas; deadline ${o.deadlineMs} ms; ${o.phaseMs} ms of steady load after each recovery.`,
    `- Acknowledged writes: ${Object.entries(r.acked).map(([k, n]) => `${k} ${n}`).join(', ')}; claims requeued by the sweeper: ${r.claimsRequeued}.`,
    `- Invariants (claims never held by two owners, lease tokens never reused, config versions never acknowledged twice): ${r.violations.length === 0 ? 'held' : `**${r.violations.length} violations**`}.`,
    `- Final check of the whole ledger against MariaDB: ${r.lostAtEnd.length === 0 ? 'nothing missing' : `**${r.lostAtEnd.length} missing**`}.`,
  ];
  const failing = r.phases.filter((p) => p.callsFailed > 0);
  if (failing.length > 0) {
    const what = (p: (typeof failing)[number]): string =>
      `${p.fault}: ${Object.entries(p.failedByReason).map(([reason, k]) => `${k}× "${reason}"`).join(', ')} (${Object.entries(p.failedByMethod).map(([m, k]) => `${m} ${k}`).join(', ')})`;
    lines.push(`- Failed calls, by what the client said: ${failing.map(what).join('; ')}.`);
  }
  const codes = (p: PhaseResult): string => Object.entries(p.failedByCode).map(([code, k]) => `${code} ${k}`).join(', ') || 'none';
  for (const p of r.phases.filter((x) => x.readyz)) {
    const z = p.readyz as NonNullable<PhaseResult['readyz']>;
    const during = Object.entries(z.duringFault).map(([code, k]) => `${k}× ${code === '0' ? 'no answer' : code}`).join(', ') || 'no probe';
    lines.push(
      `- ${p.fault}: failures by status ${codes(p)} (${p.noEffect} with x-sfdb-no-effect); the longest call ${p.longestCallMs} ms, ${p.late} settled after their deadline; ` +
        `/readyz during the fault: ${during}${z.first503Ms === null ? '' : ` (the first 503 after ${z.first503Ms} ms)`}, ` +
        `MariaDB judged unreachable by every replica ${z.judgedDownMs === null ? 'never' : `after ${z.judgedDownMs} ms`}, every replica 200 again ` +
        `${z.readyAfterEndMs === null ? '**not within the phase**' : `${z.readyAfterEndMs} ms after its end`}.`,
    );
  }
  lines.push(`- The driver's own event-loop delay, max per phase (every time above is read by it): ${r.phases.map((p) => `${p.fault} ${p.driverLagMaxMs} ms`).join(', ')}.`);
  const n = r.newReplica;
  if (n) {
    lines.push(
      `- New replica (max connection age ${n.ageMs} ms, grace ${n.graceMs} ms): a third replica added to the clients' name received their calls ` +
        `${n.firstTrafficMs === undefined ? '**never**' : `after ${n.firstTrafficMs} ms`} (bound ${n.boundMs} ms; ${n.resolutionsAfterAdd} re-resolutions, ${n.failedCalls} failed calls).`,
    );
  }
  const c = r.newReplicaControl;
  if (c) {
    lines.push(
      `- Control, before the faults (replicas with the default age, ${c.ageMs} ms): the same kind of new replica received ` +
        `${c.firstTrafficMs === undefined ? `no call within ${c.boundMs} ms` : `**a call after ${c.firstTrafficMs} ms**`} (${c.resolutionsAfterAdd} re-resolutions).`,
    );
  }
  return lines.join('\n');
}

/** Everything that went wrong, one line each (empty when the run is clean). */
export function problems(r: FaultRunResult): string[] {
  const out: string[] = [];
  for (const p of r.phases) {
    if (p.writesLost > 0) out.push(`${p.fault}: ${p.writesLost} acknowledged writes lost: ${p.lost.map((l) => `${l.kind} ${l.what} (${l.why})`).join('; ')}`);
    if (p.boundMs !== null && p.recoverMs === null) out.push(`${p.fault}: no acknowledged write after the fault`);
    if (p.rejoinMs === null) out.push(`${p.fault}: the replacement replica served no call`);
    if ((p.failedByCode['INTERNAL'] ?? 0) > 0) out.push(`${p.fault}: ${p.failedByCode['INTERNAL']} calls answered INTERNAL`);
    if (p.lateEffectCount > 0) {
      out.push(`${p.fault}: ${p.lateEffectCount} failed writes took effect after their call's deadline: ${p.lateEffects.map((l) => `${l.method} ${l.id} +${l.lateMs} ms`).join('; ')}`);
    }
    if (p.late > 0) out.push(`${p.fault}: ${p.late} calls settled after their deadline (the longest ${p.longestCallMs} ms)`);
    if (p.readyz && p.readyz.readyAfterEndMs === null) out.push(`${p.fault}: /readyz not 200 again on every replica within the phase`);
    if (p.readyz && p.fault === 'db-blackhole' && (p.readyz.duringFault['200'] ?? 0) > 0) out.push(`${p.fault}: /readyz answered 200 during the blackhole`);
    if (p.readyz && p.recoverAfterEndMs !== null && p.recoverAfterEndMs > DB_RECOVERY_TARGET_MS) {
      out.push(`${p.fault}: writes acknowledged again ${p.recoverAfterEndMs} ms after its end (target ${DB_RECOVERY_TARGET_MS} ms)`);
    }
  }
  for (const v of r.violations) out.push(`${v.rule}: ${v.detail}`);
  for (const l of r.lostAtEnd) out.push(`final check: ${l.kind} ${l.what} lost (${l.why}), acknowledged in ${l.phase}`);
  if (r.newReplica && r.newReplica.firstTrafficMs === undefined) out.push('the new replica received no traffic');
  if (r.newReplicaControl && r.newReplicaControl.firstTrafficMs !== undefined) out.push('control: a new replica got calls without connection age-outs (the check proves nothing)');
  return out;
}

/** Writes bench/results/faults-<date>.json; answers its path. */
export function saveRun(dir: string, saved: SavedFaultRun): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `faults-${saved.date.replace(/[:.]/g, '-').replace(/-\d+Z$/, 'Z')}.json`);
  writeFileSync(path, `${JSON.stringify(saved, null, 2)}\n`);
  return path;
}
