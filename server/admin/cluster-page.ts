// The Cluster page: a card per replica (id, addresses, heartbeat age, calls in flight,
// waiters, version) and per node (heartbeat age, live or stale, its daemons and their
// states, latest stats). Ages tick in the browser; daemon states follow the change feed.
import type { DaemonRow } from './queries.js';
import type { NodeStatusRow, ReplicaStatusRow } from '../rpc/nodes/queries.js';
import { age, attrs, dbTime, esc, liveness, stateBadge, table } from './html.js';
import type { PeerAnswer, ReplicaInfo } from './peers.js';
import { ageNow } from './reads.js';
import type { ClusterSnapshot } from './reads.js';

/** Stats keys shown on a node card; the rest behind a disclosure. */
const STATS_SHOWN = 8;
const STAT_CHARS = 80;

export interface ClusterView {
  snapshot: ClusterSnapshot;
  selfId: string;
  /** Each live replica's own account (this one's read directly), by replica id. */
  info: Map<string, PeerAnswer<ReplicaInfo>>;
  replicaLiveMs: number;
  nodeLiveMs: number;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function replicaCard(r: ReplicaStatusRow, v: ClusterView): string {
  const ms = ageNow(r.age_us, v.snapshot.at);
  const live = ms !== null && ms < v.replicaLiveMs;
  const info = v.info.get(r.replica_id);
  const self = r.replica_id === v.selfId;
  const num = (n: number | undefined): string => (n === undefined || !Number.isFinite(n) ? '?' : String(n));
  const known = info?.ok ? info.value : undefined;
  const fact = (term: string, value: string): string => `<div data-fact="${esc(term)}"><dt>${esc(term)}</dt><dd>${value}</dd></div>`;
  const key = `replica-${r.replica_id}`;
  return `<article class="card replica" id="${esc(key)}" data-liveness-card aria-labelledby="${esc(key)}-h">
<h3 id="${esc(key)}-h">${esc(r.replica_id)}${self ? ' <span class="muted">(this replica)</span>' : ''}</h3>
<p>${liveness(live)} heartbeat ${age(ms, v.replicaLiveMs)} ago</p>
<dl class="facts">
${fact('gRPC address', `<code>${esc(r.address)}</code>`)}
${fact('HTTP address', r.metrics_address ? `<code>${esc(r.metrics_address)}</code>` : 'not recorded')}
${fact('calls in flight', esc(num(known?.inFlight)))}
${fact('change-feed waiters', esc(num(known?.waiters)))}
${fact('version', esc(known?.version ?? '?'))}
${fact('started', dbTime(r.started_at))}
</dl>
${info && !info.ok ? `<p class="warn">not reachable over HTTP: ${esc(info.error)}</p>` : ''}
</article>`;
}

function statsList(stats: string | null): string {
  if (!stats) return '<p class="muted">no stats reported</p>';
  let parsed: unknown;
  try {
    parsed = JSON.parse(stats);
  } catch {
    return '<p class="muted">stats unreadable</p>';
  }
  const entries = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.entries(parsed as Record<string, unknown>) : [];
  if (entries.length === 0) return '<p class="muted">no stats reported</p>';
  const item = ([k, v]: [string, unknown]): string => `<div><dt>${esc(k)}</dt><dd>${esc(truncate(typeof v === 'string' ? v : JSON.stringify(v), STAT_CHARS))}</dd></div>`;
  const shown = entries.slice(0, STATS_SHOWN).map(item).join('');
  const rest = entries.slice(STATS_SHOWN);
  const more = rest.length > 0 ? `<details><summary>${rest.length} more</summary><dl class="facts">${rest.map(item).join('')}</dl></details>` : '';
  return `<dl class="facts stats" aria-label="latest stats">${shown}</dl>${more}`;
}

/** One daemon's row: `data-updated` lets the page keep the newer of two reads. */
function daemonRow(d: DaemonRow, at: number): string {
  // An operator hold outlives the process: the daemon stays stopped until an operator starts it.
  const hold = Number(d.operator_hold) === 1 ? ' <span class="badge hold" title="operator hold: RUNNING and IDLE are refused until sf-ctl start-daemon">held</span>' : '';
  return `<tr${attrs({ 'data-daemon': d.daemon, 'data-updated': d.updated_at })}><th scope="row">${esc(d.daemon)}</th><td>${stateBadge(d.state)}${hold}</td><td>${age(ageNow(d.age_us, at))}</td><td>${esc(truncate(d.message, 200))}</td></tr>`;
}

/** A node's card; `daemonsAt` is when its daemon rows were read (they may be fresher than the node row). */
export function nodeCard(n: NodeStatusRow, nodeAt: number, daemons: readonly DaemonRow[], daemonsAt: number, nodeLiveMs: number): string {
  const ms = ageNow(n.age_us, nodeAt);
  const live = ms !== null && ms < nodeLiveMs;
  const key = `node-${n.uuid}`;
  const rows = daemons.map((d) => daemonRow(d, daemonsAt));
  return `<article class="card node" id="${key}" data-node="${esc(n.uuid)}" data-liveness-card aria-labelledby="${key}-h">
<h3 id="${key}-h">${esc(n.fqdn)}</h3>
<p class="muted"><code>${esc(n.uuid)}</code></p>
<p>${liveness(live)} heartbeat ${age(ms, nodeLiveMs)}${ms === null ? '' : ' ago'}</p>
${table('Daemons', [{ label: 'daemon' }, { label: 'state' }, { label: 'since' }, { label: 'message' }], rows, 'no daemon has recorded a state')}
<h4>Latest stats</h4>
${statsList(n.stats)}
</article>`;
}

export function clusterMain(v: ClusterView): string {
  const { snapshot } = v;
  const replicas = snapshot.replicas.map((r) => replicaCard(r, v));
  const liveReplicas = snapshot.replicas.filter((r) => Number(r.age_us) / 1000 < v.replicaLiveMs).length;
  const liveNodes = snapshot.nodes.filter((n) => n.age_us !== null && Number(n.age_us) / 1000 < v.nodeLiveMs).length;
  const byName = [...snapshot.nodes].sort((x, y) => x.fqdn.localeCompare(y.fqdn) || x.uuid.localeCompare(y.uuid));
  const nodes = byName.map((n) => nodeCard(n, snapshot.at, snapshot.daemons.get(n.uuid) ?? [], snapshot.at, v.nodeLiveMs));
  return `<h1>Cluster</h1>
<p class="summary">${liveReplicas} of ${snapshot.replicas.length} replicas live · ${liveNodes} of ${snapshot.nodes.length} nodes live ·
a replica is live while its heartbeat is younger than ${v.replicaLiveMs / 1000} s, a node ${v.nodeLiveMs / 1000} s (database time).</p>
<section aria-labelledby="replicas-h">
<h2 id="replicas-h">Replicas</h2>
<div class="cards" id="replicas">
${replicas.join('\n') || '<p>No replica in the registry.</p>'}
</div>
</section>
<section aria-labelledby="nodes-h">
<h2 id="nodes-h">Nodes</h2>
<div class="cards" id="nodes">
${nodes.join('\n') || '<p>No node registered.</p>'}
</div>
</section>`;
}
