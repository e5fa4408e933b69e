// Recovery figures measured by the chaos tests, collected in .data/chaos-figures.json
// (and printed) so docs quote what a run measured.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const FILE = '.data/chaos-figures.json';

export function recordFigure(name: string, value: Record<string, number | string>): void {
  mkdirSync('.data', { recursive: true });
  let all: Record<string, unknown> = {};
  try {
    all = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
  } catch {
    // first figure of the run
  }
  all[name] = { ...value, measuredAt: new Date().toISOString() };
  writeFileSync(FILE, `${JSON.stringify(all, null, 2)}\n`);
  console.log(`figure ${name}: ${JSON.stringify(value)}`);
}
