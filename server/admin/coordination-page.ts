// The Coordination page: leases (holder, fencing token, expiry counting down in the
// browser) and stuck claims (claims whose lease ran out, with how long they have been stuck).
import { isLive } from '../rpc/leases/queries.js';
import { age, countdown, dbTime, esc, table, td } from './html.js';
import { ageNow, LEASE_LIMIT, STUCK_LIMIT } from './reads.js';
import type { Coordination } from './reads.js';
import { performance } from 'node:perf_hooks';

export function coordinationMain(c: Coordination, refreshMs: number): string {
  const since = performance.now() - c.at;
  const leases = c.leases.map((l) => {
    const state = l.holder === '' ? 'released' : isLive(l) ? 'held' : 'expired';
    const left = Number(l.remaining_ms) - since;
    return `<tr data-lease="${esc(l.name)}"><th scope="row">${esc(l.name)}</th>${td(l.holder || '(none)')}${td(l.token, true)}<td>${
      state === 'held' ? countdown(left) : esc(state)
    }</td><td>${dbTime(l.expires_at)}</td></tr>`;
  });
  const stuck = c.stuck.map(
    (s) =>
      `<tr data-item="${esc(s.id)}"><th scope="row"><code>${esc(s.id)}</code></th>${td(s.queue)}<td><code>${esc(s.node_uuid)}</code></td>${td(
        s.claim_holder || '-',
      )}${td(s.epoch, true)}${td(s.attempts, true)}<td>${age(ageNow(s.stuck_us, c.at))}</td></tr>`,
  );
  return `<h1>Coordination</h1>
<p class="summary">Leases and stuck claims, re-read every ${refreshMs / 1000} s while this page is open (lease renewals and claims publish no change rows); expiries count down in the browser.</p>
<section aria-labelledby="leases-h">
<h2 id="leases-h">Leases</h2>
${table(
  `${c.leases.length} lease${c.leases.length === 1 ? '' : 's'}${c.leasesTruncated ? `, the first ${LEASE_LIMIT} by name` : ''}`,
  [{ label: 'lease' }, { label: 'holder' }, { label: 'token', num: true }, { label: 'expires in' }, { label: 'expires at' }],
  leases,
  'no lease',
  'leases',
)}
</section>
<section aria-labelledby="stuck-h">
<h2 id="stuck-h">Stuck claims</h2>
${table(
  `${c.stuck.length} claim${c.stuck.length === 1 ? '' : 's'} past their lease${c.stuckTruncated ? `, the oldest ${STUCK_LIMIT}` : ''}; the recovery sweep requeues them`,
  [{ label: 'item' }, { label: 'queue' }, { label: 'node' }, { label: 'holder' }, { label: 'epoch', num: true }, { label: 'attempts', num: true }, { label: 'stuck for' }],
  stuck,
  'no stuck claim',
  'stuck',
)}
</section>`;
}
