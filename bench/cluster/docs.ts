// The bench:cluster section of docs/BENCHMARKS.md. Other benchmarks own other sections
// of that file: the file is read right before writing and only the text between our
// markers changes. Inside, three parts are written by different runs: the modes side by
// side (a plain run), the sweep's fitted models, the history comparison.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Machine } from '../../harness/machine.js';

export const START = '<!-- bench:cluster:start -->';
export const END = '<!-- bench:cluster:end -->';
export const PARTS = ['modes', 'sweep', 'history'] as const;
export type Part = (typeof PARTS)[number];

const partStart = (p: Part): string => `<!-- bench:cluster:${p}:start -->`;
const partEnd = (p: Part): string => `<!-- bench:cluster:${p}:end -->`;

const FILE_INTRO = `# Benchmarks

Every figure below comes from the command shown beside it, run on the machine described
there. Compare figures as ratios within one run, never across runs or machines: the
machines these were taken on are shared and noisy (2 cores, other people's tests running
at the same time), so absolute numbers move by tens of percent from one run to the next.
`;

const SECTION_INTRO = `## Simulated cluster: \`npm run bench:cluster\`

What the database tier and MariaDB receive from a simulated cluster of node daemons
([workload.md](workload.md); the simulator is bench/cluster/sim/, the orchestrator
bench/cluster/run.ts), mode by mode on the same seeded data, and whether every duty of
the daemons still held. A private MariaDB and the tier replicas run as separate
processes, the replicas as built (\`node dist/server/main.js\`, after \`tsc -b
tsconfig.build.json\`; \`--tier source\` runs \`server/main.ts\` under tsx, as the tests do,
and a run's Date line says which); each mode gets the simulator, a warm-up, then a quiet window measured between
two scrapes of every replica's \`/metrics\` and of \`SHOW GLOBAL STATUS\`. During the window
the benchmark injects one event at a fixed interval, the same sequence in every mode
(operator stop, enqueue, blob transfer, instance state change, in turn over nodes and
daemons). Its own RPCs are counted under caller \`bench\` and left out of the tier
figures; its own statements (one SHOW GLOBAL STATUS per window, and each injection's
statements, measured once before the first mode) are taken off the MariaDB figures.
JSON, Markdown and an SVG chart of each run are written to bench/results/.`;

const PLACEHOLDER: Record<Part, string> = {
  modes: '### Modes side by side\n\nNot run yet.',
  sweep: '### Sweep: load against nodes and instances\n\nNot run yet.',
  history: '### History: does retained history raise steady-state load?\n\nNot run yet.',
};

function skeleton(parts: Partial<Record<Part, string>>): string {
  return [START, SECTION_INTRO, ...PARTS.map((p) => `${partStart(p)}\n${parts[p] ?? PLACEHOLDER[p]}\n${partEnd(p)}`), END].join('\n\n');
}

/** `text` with our section's parts replaced (the section added at the end when missing). */
export function replaceParts(text: string, parts: Partial<Record<Part, string>>): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return `${text.trimEnd()}\n\n${skeleton(parts)}\n`;
  let section = text.slice(start, end + END.length);
  for (const p of PARTS) {
    const body = parts[p];
    if (body === undefined) continue;
    const a = section.indexOf(partStart(p));
    const b = section.indexOf(partEnd(p));
    const block = `${partStart(p)}\n${body}\n${partEnd(p)}`;
    section = a >= 0 && b > a ? section.slice(0, a) + block + section.slice(b + partEnd(p).length) : section.replace(END, `${block}\n\n${END}`);
  }
  return text.slice(0, start) + section + text.slice(end + END.length);
}

/** Re-reads `path` and rewrites only our parts. */
export function writeDocs(path: string, parts: Partial<Record<Part, string>>): void {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${FILE_INTRO}\n${skeleton(parts)}\n`);
    return;
  }
  writeFileSync(path, replaceParts(readFileSync(path, 'utf8'), parts));
}

import type { From } from '../../harness/built.js';
export { describeMachine, load1 } from '../../harness/machine.js';
export type { Machine } from '../../harness/machine.js';

export interface RunMeta {
  command: string;
  date: Date;
  machine: Machine;
  loadBefore: string;
  loadAfter: string;
  /** Where the JSON / Markdown / SVG of this run went. */
  files: string[];
  simulator: string;
  /** How the tier replicas ran: the build (`node dist/server/main.js`) or the sources under tsx. */
  tier: From;
}

export function metaLines(m: RunMeta): string[] {
  return [
    `- Command: \`${m.command}\``,
    `- Date: ${m.date.toISOString().replace(/\.\d+Z$/, 'Z')}; simulator: \`${m.simulator}\`; tier: ${m.tier === 'built' ? '`node dist/server/main.js` (the build `npm start` runs)' : '`server/main.ts` under tsx'}`,
    `- Machine: ${m.machine.nproc} cores (nproc), ${m.machine.cpu}; Node ${m.machine.node}; ${m.machine.mariadb}`,
    `- Load average (1 min) before / after: ${m.loadBefore} / ${m.loadAfter}`,
    `- Files: ${m.files.map((f) => `\`${f}\``).join(', ')} (not committed)`,
  ];
}
