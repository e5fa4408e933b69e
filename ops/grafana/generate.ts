// `npm run ops:dashboard`: writes the Grafana dashboard JSON from ops/grafana/dashboard.ts.
// `--check` writes nothing and exits 1 when the committed file is not what the code
// renders (CI; a panel changed without this run, or the JSON edited by hand).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDashboard, DASHBOARD_FILE, GENERATE_COMMAND } from './dashboard.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The file's text: 2-space JSON with a final newline, so diffs stay line-sized. */
function renderDashboard(): string {
  return `${JSON.stringify(buildDashboard(), null, 2)}\n`;
}

function committed(file: string): string | undefined {
  try {
    return readFileSync(join(ROOT, file), 'utf8');
  } catch {
    return undefined;
  }
}

function main(): void {
  const text = renderDashboard();
  if (process.argv.includes('--check')) {
    if (committed(DASHBOARD_FILE) !== text) {
      console.error(`${DASHBOARD_FILE} is out of date with ops/grafana/*.ts; run \`${GENERATE_COMMAND}\``);
      process.exit(1);
    }
    return;
  }
  writeFileSync(join(ROOT, DASHBOARD_FILE), text);
  console.log(`wrote ${DASHBOARD_FILE}`);
}

main();
