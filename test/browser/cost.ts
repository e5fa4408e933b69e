// What an open admin page costs MariaDB: statements per minute by source
// (database_queries_total{source}) on both replicas of a demo cluster (demo.ts), with no
// page open and then with each page open in Chromium, for each cluster size given. Read
// from each replica's registry directly (a /metrics scrape would add statements of its own).
//   npx tsx test/browser/cost.ts [--seconds 90] [--nodes 3,30]
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import type { Tier } from '../../server/tier.js';
import { launchBrowser } from '../helpers/browser.js';
import { startDemo } from './demo.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '90' }, nodes: { type: 'string', default: '3,30' } } });
const seconds = Number(values.seconds);
const sizes = values.nodes.split(',').map(Number);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function statements(tier: Tier): Promise<Map<string, number>> {
  const metric = tier.metrics.registry.getSingleMetric('database_queries_total');
  const out = new Map<string, number>();
  for (const v of (await metric?.get())?.values ?? []) out.set(String(v.labels['source']), v.value);
  return out;
}

interface Row {
  nodes: number;
  window: string;
  a: Map<string, number>;
  b: number;
}

const PAGES: Record<string, string[]> = {
  'no page': [],
  Cluster: ['/admin/cluster'],
  'Cluster ×3 tabs': ['/admin/cluster', '/admin/cluster', '/admin/cluster'],
  Load: ['/admin/load'],
  Coordination: ['/admin/coordination'],
  Objects: ['/admin/objects?namespace=payments&type=instance&limit=25'],
  'all four': ['/admin/cluster', '/admin/load', '/admin/coordination', '/admin/objects?namespace=payments&type=instance&limit=25'],
};

const rows: Row[] = [];
for (const nodes of sizes) {
  const demo = await startDemo({ nodes, heartbeatMs: 10_000, objects: 40 });
  const browser = await launchBrowser();
  try {
    await sleep(5_000); // the daemons' start-up calls settle
    for (const [window, paths] of Object.entries(PAGES)) {
      const pages: Page[] = [];
      for (const path of paths) {
        const page = await browser.newPage();
        await page.goto(`${demo.base}${path}`);
        pages.push(page);
      }
      await sleep(1_000); // the first load is not the steady cost
      const [a, b] = demo.replicas as [Tier, Tier];
      const beforeA = await statements(a);
      const beforeB = await statements(b);
      await sleep(seconds * 1000);
      const afterA = await statements(a);
      const afterB = await statements(b);
      const perMin = (after: Map<string, number>, before: Map<string, number>, key: string): number => (((after.get(key) ?? 0) - (before.get(key) ?? 0)) * 60) / seconds;
      const sum = (m: Map<string, number>): number => [...m.values()].reduce((x, y) => x + y, 0);
      rows.push({
        nodes,
        window,
        a: new Map<string, number>([
          ...['admin', 'registry', 'changefeed', 'rpc'].map((k): [string, number] => [k, perMin(afterA, beforeA, k)]),
          ['total', ((sum(afterA) - sum(beforeA)) * 60) / seconds],
        ]),
        b: ((sum(afterB) - sum(beforeB)) * 60) / seconds,
      });
      const r = rows.at(-1) as Row;
      process.stderr.write(`${nodes} nodes, ${window}: admin ${r.a.get('admin')?.toFixed(1)}/min, A total ${r.a.get('total')?.toFixed(1)}/min, B total ${r.b.toFixed(1)}/min\n`);
      for (const p of pages) await p.close();
    }
  } finally {
    await browser.close();
    await demo.stop();
  }
}

const f = (n: number | undefined): string => (n ?? 0).toFixed(1);
process.stdout.write(`statements per minute over ${seconds} s windows (replica A serves the pages; B is its peer)\n\n`);
process.stdout.write('| nodes | open | A admin | A registry | A changefeed | A rpc | A total | B total |\n|---|---|---|---|---|---|---|---|\n');
for (const r of rows) {
  process.stdout.write(`| ${r.nodes} | ${r.window} | ${f(r.a.get('admin'))} | ${f(r.a.get('registry'))} | ${f(r.a.get('changefeed'))} | ${f(r.a.get('rpc'))} | ${f(r.a.get('total'))} | ${f(r.b)} |\n`);
}
