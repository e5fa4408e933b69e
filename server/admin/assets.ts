// The admin view's two static assets, served by the replica itself (no CDN; works
// offline): the stylesheet, and the one module of the live part (browser/live.ts). Built
// (`npm run build`), the module is tsc's dist/server/admin/browser/live.js; from source
// (tsx: tests, `npm run ctl`…) the .ts is transpiled once with the `typescript`
// devDependency, which a built replica never loads.
import { readFile } from 'node:fs/promises';

let live: Promise<string> | undefined;

/** True when this module runs from TypeScript source (tsx), not from dist/. */
export function runningFromSource(): boolean {
  return import.meta.url.endsWith('.ts');
}

async function compile(): Promise<string> {
  if (!runningFromSource()) {
    const js = await readFile(new URL('./browser/live.js', import.meta.url), 'utf8');
    return js.replace(/^\/\/# sourceMappingURL=.*$/m, '');
  }
  const source = await readFile(new URL('./browser/live.ts', import.meta.url), 'utf8');
  const ts = (await import('typescript')).default;
  return ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
}

/** The live module's JavaScript (read or transpiled once). */
export function liveModule(): Promise<string> {
  live ??= compile().catch((err: unknown) => {
    live = undefined;
    throw err;
  });
  return live;
}

/** Contrast ≥ 4.5:1 for text, a visible focus ring, state never shown by colour alone. */
export const STYLESHEET = `
:root { color-scheme: light; --fg: #1a1a1a; --muted: #4a4a4a; --bg: #ffffff; --panel: #f5f6f8; --line: #c9ccd1;
  --link: #1a4fd6; --focus: #1a4fd6; --ok-bg: #e3f3e6; --ok: #0b5d1e; --bad-bg: #fde8e6; --bad: #8a1c12;
  --warn-bg: #fff2d1; --warn: #6b4800; --idle-bg: #eceff3; --idle: #33414f; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--link); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--bg); padding: 6px 10px; z-index: 10; }
.skip:focus { left: 8px; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 24px; padding: 10px 20px; border-bottom: 1px solid var(--line); background: var(--panel); }
.brand { margin: 0; font-weight: 600; }
nav ul { display: flex; gap: 4px; list-style: none; margin: 0; padding: 0; }
nav a { display: inline-block; padding: 6px 12px; border-radius: 6px; text-decoration: none; }
nav a[aria-current="page"] { background: var(--fg); color: var(--bg); }
.live-status { margin: 0 0 0 auto; font-size: 13px; color: var(--muted); }
main { padding: 8px 20px 40px; max-width: 1400px; }
h1 { font-size: 24px; margin: 12px 0 4px; }
h2 { font-size: 19px; margin: 24px 0 8px; }
h3 { font-size: 16px; margin: 0 0 2px; word-break: break-all; }
h4 { font-size: 14px; margin: 10px 0 4px; }
.muted, .help { color: var(--muted); }
.help { font-size: 13px; margin: 2px 0 0; }
.summary, .note { color: var(--muted); margin: 0 0 8px; }
.warn { color: var(--bad); }
code { font: 13px/1.3 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 12px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; background: var(--bg); }
.card p { margin: 4px 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0; }
.facts div { display: contents; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; word-break: break-all; }
.badge, .state { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 13px; font-weight: 600; border: 1px solid currentColor;
  background: var(--idle-bg); color: var(--idle); }
.badge.live, .state.state-running, .state.state-created { background: var(--ok-bg); color: var(--ok); }
.badge.stale, .state.state-error, .state.state-errored { background: var(--bad-bg); color: var(--bad); }
.badge.hold { background: var(--warn-bg); color: var(--warn); }
.state.state-stopping, .state.state-starting, .state.state-initial, .state.state-preflight, .state.state-creating { background: var(--warn-bg); color: var(--warn); }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; font-size: 14px; }
caption { text-align: left; color: var(--muted); padding: 4px 0; caption-side: top; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { background: var(--panel); }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.card table { font-size: 13px; }
tr.new { background: var(--warn-bg); }
tr.over .status, tr.unbudgeted .status { color: var(--bad); font-weight: 700; }
.values { word-break: break-all; }
.filters { display: flex; flex-wrap: wrap; gap: 12px 20px; align-items: flex-start; margin: 8px 0 12px; }
.filters label { display: block; font-weight: 600; }
input, select, button { font: inherit; padding: 5px 8px; border: 1px solid var(--muted); border-radius: 6px; background: var(--bg); color: var(--fg); }
button { background: var(--fg); color: var(--bg); cursor: pointer; margin-top: 22px; }
.pager { display: flex; gap: 16px; margin: 8px 0; }
.chart { margin: 8px 0 12px; max-width: 900px; }
.chart text { font-size: 12px; fill: var(--fg); }
.chart text.muted { fill: var(--muted); }
.chart rect { fill: #3d5a80; }
.chart .over rect, .chart .unbudgeted rect { fill: #b3261e; }
.chart .ok rect { fill: #2f6f3e; }
.chart line.expected { stroke: var(--fg); stroke-width: 2; }
.chart line.ceiling { stroke: #b3261e; stroke-width: 2; stroke-dasharray: 3 2; }
.chart line.axis { stroke: var(--line); }
figcaption { color: var(--muted); font-size: 13px; }
details summary { cursor: pointer; color: var(--link); }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
`;
