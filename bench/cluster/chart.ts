// A hand-written SVG of load against nodes per mode: tier RPCs/s and MariaDB
// statements/s, measured points joined by lines, the fitted model dashed. No dependency.
import type { LinearFit } from './fit.js';
import { churnOf } from './options.js';
import type { Shape } from './options.js';
import type { ModeFit } from './report.js';
import type { ClusterResult, ModeResult } from './results.js';

export interface Series {
  name: string;
  points: { x: number; y: number }[];
  /** A fitted line over the x range, drawn dashed. */
  fit?: (x: number) => number;
}

const COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e'];

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Tick step for about `count` ticks up to `max`: 1, 2 or 5 × 10^k. */
export function niceStep(max: number, count = 5): number {
  if (!(max > 0)) return 1;
  const raw = max / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

function fmt(v: number): string {
  return Math.abs(v) >= 1000 ? `${(v / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })}k` : v.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** One panel (a <g> at x, y) of width w and height h. */
export function panel(o: { x: number; y: number; w: number; h: number; title: string; xLabel: string; yLabel: string; series: readonly Series[] }): string {
  const m = { left: 60, right: 12, top: 28, bottom: 42 };
  const pw = o.w - m.left - m.right;
  const ph = o.h - m.top - m.bottom;
  const xs = o.series.flatMap((s) => s.points.map((p) => p.x));
  const xMin = Math.min(0, ...xs);
  // Whole ticks (nodes are counted), and room past the last point.
  const xStep = Math.max(1, niceStep(Math.max(1, ...xs) - xMin, 6));
  const xMax = Math.ceil((Math.max(1, ...xs) * 1.05) / xStep) * xStep;
  const ys = o.series.flatMap((s) => [...s.points.map((p) => p.y), ...(s.fit ? [s.fit(xMin), s.fit(xMax)] : [])]).filter(Number.isFinite);
  const yStep = niceStep(Math.max(0, ...ys) * 1.05);
  const yMax = Math.max(yStep, Math.ceil((Math.max(0, ...ys) * 1.05) / yStep) * yStep);
  const sx = (v: number): number => m.left + ((v - xMin) / (xMax - xMin)) * pw;
  const sy = (v: number): number => m.top + ph - (Math.max(0, v) / yMax) * ph;
  const out: string[] = [`<g transform="translate(${o.x},${o.y})">`];
  out.push(`<text x="${o.w / 2}" y="16" text-anchor="middle" font-weight="bold">${escapeXml(o.title)}</text>`);
  for (let v = 0; v <= yMax + 1e-9; v += yStep) {
    out.push(`<line x1="${m.left}" x2="${m.left + pw}" y1="${sy(v).toFixed(1)}" y2="${sy(v).toFixed(1)}" stroke="#ddd"/>`);
    out.push(`<text x="${m.left - 6}" y="${(sy(v) + 4).toFixed(1)}" text-anchor="end">${fmt(v)}</text>`);
  }
  for (let v = Math.ceil(xMin / xStep) * xStep; v <= xMax + 1e-9; v += xStep) {
    out.push(`<line x1="${sx(v).toFixed(1)}" x2="${sx(v).toFixed(1)}" y1="${m.top + ph}" y2="${m.top + ph + 4}" stroke="#333"/>`);
    out.push(`<text x="${sx(v).toFixed(1)}" y="${m.top + ph + 17}" text-anchor="middle">${fmt(v)}</text>`);
  }
  out.push(`<rect x="${m.left}" y="${m.top}" width="${pw}" height="${ph}" fill="none" stroke="#333"/>`);
  out.push(`<text x="${m.left + pw / 2}" y="${o.h - 6}" text-anchor="middle">${escapeXml(o.xLabel)}</text>`);
  out.push(`<text transform="translate(14,${m.top + ph / 2}) rotate(-90)" text-anchor="middle">${escapeXml(o.yLabel)}</text>`);
  o.series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length] as string;
    const pts = [...s.points].sort((a, b) => a.x - b.x);
    if (s.fit) {
      const f = s.fit;
      out.push(`<line x1="${sx(xMin).toFixed(1)}" y1="${sy(f(xMin)).toFixed(1)}" x2="${sx(xMax).toFixed(1)}" y2="${sy(f(xMax)).toFixed(1)}" stroke="${color}" stroke-dasharray="5,4" stroke-width="1"/>`);
    }
    if (pts.length > 1) out.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${pts.map((p) => `${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ')}"/>`);
    for (const p of pts) out.push(`<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="3.5" fill="${color}"><title>${escapeXml(`${s.name}: ${p.x} → ${fmt(p.y)}`)}</title></circle>`);
    out.push(`<rect x="${m.left + 10}" y="${m.top + 8 + i * 16}" width="12" height="3" fill="${color}"/>`);
    out.push(`<text x="${m.left + 28}" y="${m.top + 13 + i * 16}">${escapeXml(s.name)}</text>`);
  });
  out.push('</g>');
  return out.join('\n');
}

function line(fit: LinearFit | undefined, instances: number): ((x: number) => number) | undefined {
  if (!fit || fit.perNode === undefined) return undefined;
  const perNode = fit.perNode;
  return (x) => fit.base + perNode * x + (fit.perInstance ?? 0) * instances;
}

/**
 * Load against nodes, one line per mode, from the runs at the base instances and history
 * (a single point without a nodes sweep); the fitted models dashed when given.
 */
export function loadChart(results: readonly ClusterResult[], base: Shape, fits: readonly ModeFit[] = []): string {
  const points = results.filter((r) => r.shape.instances === base.instances && r.shape.history === base.history && churnOf(r.shape) === churnOf(base));
  const modes = [...new Set(points.flatMap((r) => r.results.map((m) => m.mode)))];
  const series = (value: (m: ModeResult) => number, which: 'tier' | 'mariadb'): Series[] =>
    modes.map((mode) => {
      const fit = line(fits.find((f) => f.mode === mode)?.[which], base.instances);
      return {
        name: mode,
        points: points.flatMap((r) => {
          const m = r.results.find((x) => x.mode === mode);
          return m ? [{ x: r.shape.nodes, y: value(m) }] : [];
        }),
        ...(fit ? { fit } : {}),
      };
    });
  const w = 460;
  const h = 320;
  const sub = `${base.instances} instances, history ${base.history}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w * 2}" height="${h}" font-family="sans-serif" font-size="11">`,
    `<rect width="${w * 2}" height="${h}" fill="white"/>`,
    panel({ x: 0, y: 0, w, h, title: `tier RPCs/s (${sub})`, xLabel: 'nodes', yLabel: 'RPCs/s', series: series((m) => m.tier.rpcPerSecond, 'tier') }),
    panel({ x: w, y: 0, w, h, title: `MariaDB statements/s (${sub})`, xLabel: 'nodes', yLabel: 'statements/s', series: series((m) => m.mariadb.perSecond.Questions, 'mariadb') }),
    '</svg>',
    '',
  ].join('\n');
}
