// The admin view's live part, the one script of its pages (served as /admin/live.js;
// compiled by tsc with the rest, transpiled on the fly when the tier runs from source).
// It runs in the browser: it knows the DOM only through the few members declared below,
// so the tier's compilation needs no DOM library.
//
// - Ages tick here, every second, from the age the server rendered: a node or replica
//   whose heartbeat stops turns stale at its bound without a request.
// - Cluster and Objects pages follow the change feed with one long-poll
//   (/admin/api/changes: ids and kinds only) and re-read only the rows it names.
// - Pages whose data the feed does not carry (heartbeats, leases, counters) re-read their
//   <main> every data-refresh-ms while visible; the server shares those reads between pages.
export {};

interface ClassList {
  add(name: string): void;
  remove(name: string): void;
}
interface El {
  id: string;
  textContent: string | null;
  innerHTML: string;
  readonly outerHTML: string;
  readonly classList: ClassList;
  readonly content: El;
  readonly firstElementChild: El | null;
  open?: boolean;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): ArrayLike<El>;
  closest(selector: string): El | null;
  replaceWith(node: El): void;
  before(node: El): void;
  append(node: El): void;
  remove(): void;
  focus(): void;
}
interface Doc {
  readonly body: El;
  readonly hidden: boolean;
  readonly activeElement: El | null;
  getElementById(id: string): El | null;
  createElement(tag: string): El;
  addEventListener(type: string, listener: () => void): void;
}
const doc = (globalThis as unknown as { document: Doc }).document;
const here = (globalThis as unknown as { location: { pathname: string; search: string } }).location;

/** Least time between two long-polls: a burst of changes is re-read once. */
const MIN_GAP_MS = 300;
const MAX_BACKOFF_MS = 30_000;

interface Change {
  topic: string;
  id: string;
  kind: string;
}
interface Answer {
  cursor: string;
  resync: boolean;
  changes: Change[];
}

class SignedOut extends Error {}

const all = (root: El | Doc, selector: string): El[] => Array.from((root as El).querySelectorAll(selector));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function status(text: string): void {
  const el = doc.getElementById('live-status');
  if (el && el.textContent !== text) el.textContent = text;
}

/** As proto/runtime/format.ts's formatAge, which this module, served alone, cannot import (a unit test compares them). */
export function formatAge(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'never';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const trim = (s: string): string => (s.endsWith('.0') ? s.slice(0, -2) : s);
  const s = ms / 1000;
  if (s < 10) return `${trim(s.toFixed(1))} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const min = s / 60;
  if (min < 60) return `${Math.round(min)} min`;
  const h = min / 60;
  return h < 24 ? `${trim(h.toFixed(1))} h` : `${trim((h / 24).toFixed(1))} d`;
}

/** When an element was first seen: its rendered age is as of then. */
function since(el: El, now: number): number {
  const at = el.getAttribute('data-at');
  if (at !== null) return now - Number(at);
  el.setAttribute('data-at', String(now));
  return 0;
}

/** Ages and countdowns move on; liveness follows its bound. No request. */
function tick(): void {
  const now = performance.now();
  for (const el of all(doc, '[data-age-ms]')) {
    const ms = Number(el.getAttribute('data-age-ms')) + since(el, now);
    const text = formatAge(ms);
    if (el.textContent !== text) el.textContent = text;
    const bound = el.getAttribute('data-live-ms');
    const badge = bound === null ? null : el.closest('[data-liveness-card]')?.querySelector('[data-liveness]');
    if (badge) {
      const live = ms < Number(bound);
      const word = live ? 'live' : 'stale';
      if (badge.textContent !== word) {
        badge.textContent = word;
        badge.classList.remove(live ? 'stale' : 'live');
        badge.classList.add(word);
      }
    }
  }
  for (const el of all(doc, '[data-expires-ms]')) {
    const left = Number(el.getAttribute('data-expires-ms')) - since(el, now);
    const text = left > 0 ? formatAge(left) : 'expired';
    if (el.textContent !== text) el.textContent = text;
  }
}

async function getText(url: string, accept: string): Promise<string> {
  const res = await fetch(url, { headers: { accept }, credentials: 'same-origin' });
  if (res.status === 401 || res.status === 403) throw new SignedOut(`HTTP ${res.status}`);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}

async function getJson<T>(url: string): Promise<T> {
  return JSON.parse(await getText(url, 'application/json')) as T;
}

function parse(html: string): El {
  const t = doc.createElement('template');
  t.innerHTML = html;
  return t.content;
}

function fragment(html: string): El | null {
  return parse(html).firstElementChild;
}

/** In a fresh card, keep each daemon row that the page already shows newer (data-updated). */
function keepNewerRows(fresh: El, current: El | null): void {
  if (!current) return;
  for (const row of all(fresh, 'tr[data-daemon]')) {
    const old = current.querySelector(`tr[data-daemon="${row.getAttribute('data-daemon') ?? ''}"]`);
    if (old && (old.getAttribute('data-updated') ?? '') > (row.getAttribute('data-updated') ?? '')) {
      const copy = fragment(`<table><tbody>${old.outerHTML}</tbody></table>`)?.querySelector('tr');
      if (copy) row.replaceWith(copy);
    }
  }
}

/** Re-reads the page's <main> (the server shares the read between open pages). */
async function refreshMain(main: El): Promise<void> {
  const url = `${here.pathname}${here.search}${here.search ? '&' : '?'}fragment=main`;
  const fresh = parse(await getText(url, 'text/html'));
  for (const card of all(fresh, '[data-node]')) keepNewerRows(card, doc.getElementById(card.id));
  const focused = doc.activeElement?.id ?? '';
  const open = all(main, 'details[open]').map((d) => d.closest('[id]')?.id ?? '');
  main.innerHTML = '';
  main.append(fresh);
  for (const id of open) {
    const d = id ? doc.getElementById(id)?.querySelector('details') : null;
    if (d) d.open = true;
  }
  if (focused) doc.getElementById(focused)?.focus();
  tick();
}

function every(ms: number, main: El): void {
  if (!(ms > 0)) return;
  const run = async (): Promise<void> => {
    if (doc.hidden) return;
    try {
      await refreshMain(main);
      status(`live · updated ${new Date().toLocaleTimeString()}`);
    } catch (err) {
      status(err instanceof SignedOut ? 'signed out: open /admin?token=… again' : `cannot refresh (${(err as Error).message}); retrying`);
    }
  };
  setInterval(() => void run(), ms);
  doc.addEventListener('visibilitychange', () => void (doc.hidden ? undefined : run()));
}

/** The long-poll: from the cursor the page was rendered at, forever. */
async function follow(params: string, cursor: string, apply: (changes: Change[], resync: boolean) => Promise<void>): Promise<void> {
  let backoff = 1000;
  for (;;) {
    const started = performance.now();
    try {
      const answer = await getJson<Answer>(`/admin/api/changes?${params}&cursor=${encodeURIComponent(cursor)}`);
      cursor = answer.cursor;
      backoff = 1000;
      doc.body.setAttribute('data-live', 'following');
      if (answer.resync || answer.changes.length > 0) {
        await apply(answer.changes, answer.resync);
        status(`live · ${answer.changes.length} change${answer.changes.length === 1 ? '' : 's'} at ${new Date().toLocaleTimeString()}`);
      } else {
        status('live: following the change feed');
      }
    } catch (err) {
      if (err instanceof SignedOut) return status('signed out: open /admin?token=… again');
      status(`reconnecting (${(err as Error).message})`);
      await sleep(backoff);
      backoff = Math.min(2 * backoff, MAX_BACKOFF_MS);
      continue;
    }
    const spent = performance.now() - started;
    if (spent < MIN_GAP_MS) await sleep(MIN_GAP_MS - spent);
  }
}

function followCluster(main: El): Promise<void> {
  return follow('view=cluster', main.getAttribute('data-cursor') ?? '', async (changes, resync) => {
    if (resync) return refreshMain(main);
    const nodes = [...new Set(changes.map((c) => c.topic.split('/')).filter((p) => p[0] === 'daemon' && p[1]).map((p) => p[1] as string))];
    if (nodes.length === 0) return;
    const { cards } = await getJson<{ cards: { uuid: string; html: string }[] }>(`/admin/api/nodes?uuids=${nodes.join(',')}`);
    for (const card of cards) {
      const fresh = fragment(card.html);
      const current = doc.getElementById(`node-${card.uuid}`);
      if (!fresh || !current) continue;
      keepNewerRows(fresh, current);
      current.replaceWith(fresh);
    }
    tick();
  });
}

function followObjects(main: El): Promise<void> {
  const topic = main.getAttribute('data-topics') ?? '';
  const after = main.getAttribute('data-after') ?? '';
  const through = main.getAttribute('data-through') ?? '';
  const scope = `namespace=${encodeURIComponent(main.getAttribute('data-namespace') ?? '')}&type=${encodeURIComponent(main.getAttribute('data-type') ?? '')}`;
  const inPage = (id: string): boolean => id > after && (through === '' || id <= through);
  const body = (): El | null => doc.getElementById('objects')?.querySelector('tbody') ?? null;
  return follow(`topics=${encodeURIComponent(topic)}`, main.getAttribute('data-cursor') ?? '', async (changes, resync) => {
    if (resync) return refreshMain(main);
    const ids = [...new Set(changes.filter((c) => c.topic === topic && inPage(c.id)).map((c) => c.id))];
    if (ids.length === 0) return;
    const answer = await getJson<{ rows: { uuid: string; html: string }[]; gone: string[] }>(`/admin/api/objects?${scope}&uuids=${ids.join(',')}`);
    for (const id of answer.gone) doc.getElementById(`obj-${id}`)?.remove();
    const tbody = body();
    if (!tbody) return;
    for (const row of answer.rows) {
      const fresh = fragment(`<table><tbody>${row.html}</tbody></table>`)?.querySelector('tr');
      if (!fresh) continue;
      const current = doc.getElementById(`obj-${row.uuid}`);
      if (current) {
        current.replaceWith(fresh);
        continue;
      }
      fresh.classList.add('new');
      tbody.querySelector('tr.empty')?.remove();
      const next = all(tbody, 'tr[data-uuid]').find((tr) => (tr.getAttribute('data-uuid') ?? '') > row.uuid);
      if (next) next.before(fresh);
      else tbody.append(fresh);
    }
  });
}

function start(): void {
  const main = doc.getElementById('main');
  const page = doc.body.getAttribute('data-page');
  if (!main) return;
  tick();
  setInterval(tick, 1000);
  status('live');
  every(Number(main.getAttribute('data-refresh-ms') ?? '0'), main);
  if (page === 'cluster') void followCluster(main);
  if (page === 'objects' && main.getAttribute('data-topics')) void followObjects(main);
  doc.body.setAttribute('data-live', 'on');
}

// No document when a unit test imports this module under Node (for formatAge).
if (doc !== undefined) start();
