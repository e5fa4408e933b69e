// How operator displays write ages and rates — sf-ctl (ops/ctl) and the admin view
// (server/admin) — one convention, so a figure read in one reads the same in the other.
// Here, in proto/, because both sides import it and neither may import the other. The
// admin view's browser module keeps a copy of formatAge (it is served alone, with no
// imports); test/unit/sf-ctl.test.ts checks the two agree.

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

/** A share of a whole as a percentage for a table: '42 %', '3.5 %', '<0.1 %', '0 %', '>99 %' (not all), '100 %'; '-' when unknown. */
export function formatShare(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return '-';
  const pct = fraction * 100;
  if (pct === 0) return '0 %';
  if (pct < 0.1) return '<0.1 %';
  if (pct < 10) return `${pct.toFixed(1)} %`;
  return pct < 100 && Math.round(pct) === 100 ? '>99 %' : `${Math.round(pct)} %`;
}
