// Database times travel as UTC ISO-8601 strings with microseconds.

/** '2026-11-29 10:14:49.123456' (mysql2 dateStrings, UTC) -> '2026-11-29T10:14:49.123456Z'. */
export function isoTime(value: string | null | undefined): string {
  if (!value) return '';
  return `${value.replace(' ', 'T')}Z`;
}
