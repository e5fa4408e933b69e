// Human-readable output: ages, rates, aligned tables. Pure (the unit tests call them).

/** An age or a remaining time for a table: '350 ms', '4.2 s', '42 s', '3 min', '2.5 h', '3 d'; negative: 'never'. */
export function formatAge(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return 'never';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 10) return `${trim(s.toFixed(1))} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const min = s / 60;
  if (min < 60) return `${Math.round(min)} min`;
  const h = min / 60;
  if (h < 24) return `${trim(h.toFixed(1))} h`;
  return `${trim((h / 24).toFixed(1))} d`;
}

function trim(fixed: string): string {
  return fixed.endsWith('.0') ? fixed.slice(0, -2) : fixed;
}

/** A rate in calls/s with precision that suits its size: '12.4', '0.350', '0.0167', '0'. */
export function formatRate(perSecond: number | null | undefined): string {
  if (perSecond === null || perSecond === undefined || !Number.isFinite(perSecond)) return '-';
  if (perSecond === 0) return '0';
  const abs = Math.abs(perSecond);
  if (abs >= 100) return perSecond.toFixed(0);
  if (abs >= 10) return perSecond.toFixed(1);
  if (abs >= 0.1) return perSecond.toFixed(3);
  return perSecond.toPrecision(3);
}

/** Milliseconds with two significant decimals below 10: '0.84 ms', '12 ms'. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${Math.round(ms)} ms`;
}

/** Milliseconds between two database times (ISO-8601 UTC); undefined when either is unreadable. */
export function msBetween(earlier: string, later: string): number | undefined {
  const a = Date.parse(earlier);
  const b = Date.parse(later);
  return Number.isFinite(a) && Number.isFinite(b) ? b - a : undefined;
}

/** int64 milliseconds as the client hands them over (a decimal string); -1 (never) stays -1. */
export function msFromInt64(value: string | number): number {
  const n = Number(value);
  return Number.isFinite(n) ? n : -1;
}

export type Align = 'left' | 'right';

/**
 * An aligned text table: a header row, a rule, the rows. Columns listed in `right` are
 * right-aligned (numbers). Empty rows: the header and '(none)'.
 */
export function table(headers: readonly string[], rows: readonly (readonly string[])[], right: readonly number[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (right.includes(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const out = [line(headers), line(widths.map((w) => '-'.repeat(w)))];
  if (rows.length === 0) out.push('(none)');
  for (const r of rows) out.push(line(headers.map((_, i) => r[i] ?? '')));
  return `${out.join('\n')}\n`;
}

/** A titled section for plain output. */
export function section(title: string, body: string): string {
  return `${title}\n${body}`;
}
