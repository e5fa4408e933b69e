// `npm run admin:screenshots`: a screenshot of each admin page in docs/ (docs/admin-*.png),
// taken with Debian's Chromium against a demo cluster (demo.ts: two replicas, four nodes
// running the reference daemons, objects, leases, a stuck claim), after the pages have
// been open long enough to show live data (the Load page a minute's worth of samples).
//   npm run admin:screenshots [-- --out docs]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser } from '../helpers/browser.js';
import { startDemo } from './demo.js';

const { values } = parseArgs({ options: { out: { type: 'string', default: 'docs' }, 'load-seconds': { type: 'string', default: '60' } } });
const out = values.out;
const loadSeconds = Number(values['load-seconds']);
mkdirSync(out, { recursive: true });

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const TOKEN = 'screenshot-token-9c2e41d07b';

const demo = await startDemo({ nodes: 4, heartbeatMs: 5000, objects: 28, env: { SFDB_ADMIN_TOKEN: TOKEN, SFDB_NODE_LIVE_MS: '15000' } });
const browser = await launchBrowser({ viewport: { width: 1280, height: 860 } });
try {
  const page = await browser.newPage();
  await page.goto(`${demo.base}/admin?token=${TOKEN}`);
  // Stop one node's agent: its card turns stale; and one daemon, as an operator would.
  const [, second, third] = demo.sim.nodes;
  if (second) await second.queues.stop();
  if (third) await third.agent.stop();
  // The Load page samples only while it is open: open it first and let it gather.
  await page.goto(`${demo.base}/admin/load`);
  await sleep(loadSeconds * 1000);
  await page.goto(`${demo.base}/admin/load`);
  await sleep(1500);
  await page.screenshot({ path: join(out, 'admin-load.png'), fullPage: true });

  await page.goto(`${demo.base}/admin/cluster`);
  await sleep(2500);
  await page.screenshot({ path: join(out, 'admin-cluster.png'), fullPage: true });

  await demo.stuckClaim();
  await sleep(1500);
  await page.goto(`${demo.base}/admin/coordination`);
  await sleep(1500);
  await page.screenshot({ path: join(out, 'admin-coordination.png'), fullPage: true });

  await page.goto(`${demo.base}/admin/objects?namespace=payments&type=instance&limit=10`);
  await sleep(500);
  // A row created while the page is open appears in place (highlighted).
  const low = await page.getAttribute('#objects tbody tr[data-uuid]:nth-child(3)', 'data-uuid');
  const high = await page.getAttribute('#objects tbody tr[data-uuid]:nth-child(4)', 'data-uuid');
  if (low && high) {
    let uuid = crypto.randomUUID();
    while (!(uuid > low && uuid < high)) uuid = crypto.randomUUID();
    await demo.sim.db.createInstance({ uuid, namespace: 'payments', staticValues: { name: 'pay-new', vcpus: 2, memory_mb: 2048 } });
    await page.waitForSelector(`#obj-${uuid}`, { timeout: 5000 });
  }
  await sleep(300);
  await page.screenshot({ path: join(out, 'admin-objects.png'), fullPage: true });
  process.stdout.write(`wrote ${['cluster', 'load', 'coordination', 'objects'].map((p) => join(out, `admin-${p}.png`)).join(', ')}\n`);
} finally {
  await browser.close();
  await demo.stop();
}
