// The admin view's HTML: escaping, the page frame (header, navigation, live status) and the
// small pieces every page uses (ages that tick in the browser, badges, tables). Pure.

import { formatAge, formatRate } from '@sfdb/proto/runtime/format';

export { formatAge, formatRate };

export type PageName = 'cluster' | 'load' | 'coordination' | 'objects';

export const PAGES: readonly { name: PageName; title: string }[] = [
  { name: 'cluster', title: 'Cluster' },
  { name: 'load', title: 'Load' },
  { name: 'coordination', title: 'Coordination' },
  { name: 'objects', title: 'Objects' },
];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute value, escaped. */
export function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** ` name="value"` for each attribute (values escaped; undefined left out). */
export function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${esc(v as string | number)}"`)
    .join('');
}

/**
 * An age that the browser keeps ticking (live.ts): `data-age-ms` is the age when the page
 * was made; with `liveMs`, the enclosing `[data-liveness-card]` turns stale once the age
 * passes it — without a request.
 */
export function age(ms: number | null, liveMs?: number): string {
  if (ms === null || ms < 0) return '<span class="age">never</span>';
  return `<time class="age"${attrs({ 'data-age-ms': Math.round(ms), 'data-live-ms': liveMs })}>${esc(formatAge(ms))}</time>`;
}

/** A database time ('2026-11-30 20:31:51.267258') as '2026-11-30 20:31:51 UTC', with the exact value for machines. */
export function dbTime(value: string): string {
  if (!value) return '-';
  const iso = `${value.replace(' ', 'T')}Z`;
  return `<time datetime="${esc(iso)}">${esc(value.slice(0, 19))} UTC</time>`;
}

/** A remaining time the browser counts down ('expired' at 0). */
export function countdown(ms: number): string {
  const left = Math.max(0, Math.round(ms));
  return `<time class="age"${attrs({ 'data-expires-ms': left })}>${left > 0 ? esc(formatAge(left)) : 'expired'}</time>`;
}

/** live / stale, as text and colour (never colour alone). */
export function liveness(live: boolean): string {
  return `<span class="badge ${live ? 'live' : 'stale'}" data-liveness>${live ? 'live' : 'stale'}</span>`;
}

/** A daemon or object state, as a labelled badge. */
export function stateBadge(state: string): string {
  const s = state.toLowerCase().replace(/[^a-z_]/g, '');
  return `<span class="state state-${esc(s)}">${esc(state)}</span>`;
}

export interface Column {
  label: string;
  /** Right-aligned (numbers). */
  num?: boolean;
}

/** A table with a caption and column headers; `rows` are already-rendered `<tr>`s. */
export function table(caption: string, columns: readonly Column[], rows: readonly string[], empty = 'none', id?: string): string {
  const head = columns.map((c) => `<th scope="col"${c.num ? ' class="num"' : ''}>${esc(c.label)}</th>`).join('');
  const body = rows.length > 0 ? rows.join('\n') : `<tr class="empty"><td colspan="${columns.length}">${esc(empty)}</td></tr>`;
  return `<table${attrs({ id })}><caption>${caption}</caption><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** A `<td>`, escaped; `num` right-aligns it. */
export function td(text: string | number, num = false): string {
  return `<td${num ? ' class="num"' : ''}>${esc(text)}</td>`;
}

export interface Frame {
  page: PageName;
  /** The page's h1 and the document title. */
  title: string;
  replicaId: string;
  version: string;
  /** What the live module needs: data-* attributes of <main>. */
  data: Record<string, string | number | undefined>;
  main: string;
}

/** A whole page: one stylesheet and one module, both served by this replica (no CDN). */
export function frame(f: Frame): string {
  const nav = PAGES.map(
    (p) => `<li><a href="/admin/${p.name}"${p.name === f.page ? ' aria-current="page"' : ''}>${esc(p.title)}</a></li>`,
  ).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${esc(f.title)} · sf-database admin</title>
<link rel="stylesheet" href="/admin/admin.css">
<script type="module" src="/admin/live.js"></script>
</head>
<body data-page="${esc(f.page)}">
<a class="skip" href="#main">Skip to content</a>
<header>
<p class="brand">sf-database admin <span class="muted">· replica ${esc(f.replicaId)} · v${esc(f.version)} · read-only</span></p>
<nav aria-label="Admin pages"><ul>${nav}</ul></nav>
<p id="live-status" class="live-status" role="status" aria-live="polite">static page: live updates need JavaScript</p>
</header>
<main id="main" tabindex="-1"${attrs(f.data)}>
${f.main}
</main>
</body>
</html>
`;
}
