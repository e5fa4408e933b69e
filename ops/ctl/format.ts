// Human-readable output: ages, rates, aligned tables. Pure (the unit tests call them).
export { formatAge, formatRate } from '@sfdb/proto/runtime/format';

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
