// The Objects page: a namespace's objects of one type, in keyset pages by uuid. A page is
// the range (after, through]: rows inserted while it is open appear in place when they
// fall in it (the change feed's namespace topic names them; the page re-reads those rows
// only), and the next page starts after `through` whatever was inserted — no row is shown
// twice or skipped. Static values are shown with their secret fields masked.
import { topics } from '@sfdb/proto/topics';
import { InvalidArgumentError } from '../errors.js';
import { OBJECT_TYPE_COLUMN } from '../rpc/objects/types.js';
import * as v from '../validate.js';
import { attrs, dbTime, esc, stateBadge, table, td } from './html.js';
import type { ObjectListRow } from './queries.js';

export const OBJECT_TYPES: readonly string[] = Object.values(OBJECT_TYPE_COLUMN);
export const PAGE_SIZES = [10, 25, 50, 100] as const;
const DEFAULT_PAGE_SIZE = 25;
const VALUES_CHARS = 160;

export interface ObjectsQuery {
  /** '' until the form names one. */
  namespace: string;
  type: string;
  /** The page starts after this uuid ('' = the first page). */
  after: string;
  limit: number;
}

/** The page's query from the URL; bad input is INVALID_ARGUMENT naming the parameter. */
export function objectsQuery(params: URLSearchParams): ObjectsQuery {
  const namespace = params.get('namespace') ?? '';
  const type = params.get('type') || 'instance';
  if (!OBJECT_TYPES.includes(type)) throw new InvalidArgumentError('type', `one of ${OBJECT_TYPES.join(', ')}`);
  const after = params.get('after') ?? '';
  const limit = Number(params.get('limit') || DEFAULT_PAGE_SIZE);
  if (!(PAGE_SIZES as readonly number[]).includes(limit)) throw new InvalidArgumentError('limit', `one of ${PAGE_SIZES.join(', ')}`);
  return { namespace: namespace === '' ? '' : v.name('namespace', namespace, 128), type, after: v.optionalUuid('after', after), limit };
}

/** Static values as JSON with every secret field's value masked, shortened. */
export function maskedValues(row: Pick<ObjectListRow, 'static_values' | 'secret_fields'>): string {
  try {
    const values = JSON.parse(row.static_values) as Record<string, unknown>;
    for (const key of JSON.parse(row.secret_fields) as string[]) if (key in values) values[key] = '(secret)';
    const text = JSON.stringify(values);
    return text.length > VALUES_CHARS ? `${text.slice(0, VALUES_CHARS - 1)}…` : text;
  } catch {
    return '(unreadable)';
  }
}

export function objectRow(r: ObjectListRow): string {
  return `<tr${attrs({ id: `obj-${r.uuid}`, 'data-uuid': r.uuid })}><th scope="row"><code>${esc(r.uuid)}</code></th><td>${
    r.node_uuid ? `<code>${esc(r.node_uuid)}</code>` : '-'
  }</td>${td(r.version, true)}<td>${r.state ? stateBadge(r.state) : '-'}</td><td>${dbTime(r.updated_at)}</td><td><code class="values">${esc(
    maskedValues(r),
  )}</code></td></tr>`;
}

function link(q: ObjectsQuery, after: string): string {
  const p = new URLSearchParams({ namespace: q.namespace, type: q.type, limit: String(q.limit) });
  if (after !== '') p.set('after', after);
  return `/admin/objects?${p.toString()}`;
}

function form(q: ObjectsQuery): string {
  const types = OBJECT_TYPES.map((t) => `<option${t === q.type ? ' selected' : ''}>${esc(t)}</option>`).join('');
  const sizes = PAGE_SIZES.map((n) => `<option${n === q.limit ? ' selected' : ''}>${n}</option>`).join('');
  return `<form method="get" action="/admin/objects" class="filters">
<div><label for="namespace">Namespace</label>
<input id="namespace" name="namespace" value="${esc(q.namespace)}" required maxlength="128" pattern="[a-z0-9][a-z0-9_.:\\-]*" autocomplete="off" spellcheck="false" aria-describedby="namespace-help">
<p id="namespace-help" class="help">lower-case letters, digits, _ . : -</p></div>
<div><label for="type">Type</label><select id="type" name="type">${types}</select></div>
<div><label for="limit">Rows per page</label><select id="limit" name="limit">${sizes}</select></div>
<div><button type="submit">Show</button></div>
</form>`;
}

/** The page's main content and the data the live module needs (its topic and range). */
export function objectsMain(q: ObjectsQuery, rows: readonly ObjectListRow[] | undefined): { main: string; data: Record<string, string> } {
  if (rows === undefined) {
    return { main: `<h1>Objects</h1>\n${form(q)}\n<p>Name a namespace to list its objects.</p>`, data: {} };
  }
  const shown = rows.slice(0, q.limit);
  const more = rows.length > q.limit;
  // Open-ended when this is the last page: rows created after the last one belong here.
  const through = more ? (shown.at(-1)?.uuid ?? '') : '';
  const nav = [
    q.after !== '' ? `<a href="${esc(link(q, ''))}">First page</a>` : '',
    more ? `<a rel="next" href="${esc(link(q, through))}">Next page</a>` : '<span class="muted">last page</span>',
  ]
    .filter((x) => x !== '')
    .join(' · ');
  const caption = `${esc(q.type)} objects of namespace ${esc(q.namespace)}, ${
    q.after === '' ? 'first page' : `after <code>${esc(q.after)}</code>`
  }${through === '' ? '' : `, through <code>${esc(through)}</code>`}`;
  const main = `<h1>Objects</h1>
${form(q)}
<p class="summary">Rows created, changed or deleted in this page's range appear as they happen (the change feed's topic <code>${esc(
    topics.namespaceObjects(q.namespace, q.type),
  )}</code>); only those rows are re-read.</p>
${table(caption, [{ label: 'uuid' }, { label: 'node' }, { label: 'version', num: true }, { label: 'state' }, { label: 'updated' }, { label: 'static values' }], shown.map(objectRow), 'no object in this range', 'objects')}
<nav class="pager" aria-label="Pages">${nav}</nav>`;
  return {
    main,
    data: { 'data-topics': topics.namespaceObjects(q.namespace, q.type), 'data-namespace': q.namespace, 'data-type': q.type, 'data-after': q.after, 'data-through': through },
  };
}
