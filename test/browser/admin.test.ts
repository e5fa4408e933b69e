// The admin view in a real browser: Debian's Chromium driven by playwright-core against two
// running replicas and a small simulated cluster (3 nodes running the reference daemons in
// feed mode, each node's daemons on one replica). Without Chromium this file fails with the
// command that installs it (test/helpers/browser.ts): never skipped. Waits use locators,
// never string predicates: the page's Content-Security-Policy forbids eval, as it should.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTs } from '../../harness/children.js';
import { launchBrowser } from '../helpers/browser.js';
import { runCtl } from '../helpers/sf-ctl.js';
import type { TestBrowser } from '../helpers/browser.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';
import { startSim } from './sim.js';
import type { Sim } from './sim.js';

const TOKEN = 'browser-test-token-4d1f0c8e2b7a9';
const NODE_LIVE_MS = 3000;
const ENV = { SFDB_NODE_LIVE_MS: String(NODE_LIVE_MS), SFDB_ADMIN_TOKEN: TOKEN };
const NS = 'browser-objects';

let a: TestTier;
let b: TestTier;
let sim: Sim;
let browser: TestBrowser;
let page: Page;
/** Instances of NS, sorted. */
let seeded: string[] = [];
let created = '';

const base = (): string => `http://127.0.0.1:${a.tier.httpPort}`;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function uuidsOnPage(): Promise<string[]> {
  return page.$$eval('#objects tbody tr[data-uuid]', (rows) => rows.map((r) => r.getAttribute('data-uuid') ?? ''));
}

beforeAll(async () => {
  browser = await launchBrowser();
  a = await startTestTier({ env: ENV });
  b = await startTestTier({ env: ENV, database: a.database });
  await a.tier.feed.refreshPeers(); // replicas of a running cluster know each other
  sim = await startSim({ targets: [`127.0.0.1:${b.tier.grpcPort}`, `127.0.0.1:${a.tier.grpcPort}`], nodes: 3, heartbeatMs: 1000, prefix: 'sim' });
  seeded = Array.from({ length: 15 }, () => randomUUID()).sort();
  for (const uuid of seeded) await sim.db.createInstance({ uuid, namespace: NS, staticValues: { size: 'small', key: 'do-not-show' }, secretFields: ['key'] });
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await sim?.stop();
  await b?.stop();
  await a?.stop();
});

/**
 * Waits for a card's badge to read 'live' (the page follows liveness without a reload): on
 * a loaded 2-core machine a heartbeat can land more than NODE_LIVE_MS after the last, and
 * the next one makes the card live again. Fails with what the card showed.
 */
async function liveWithin(card: Locator, what: string): Promise<void> {
  const timeout = 2 * NODE_LIVE_MS;
  await card
    .locator('[data-liveness]:text-is("live")')
    .waitFor({ timeout })
    .catch(async () => {
      throw new Error(`${what} not live within ${timeout} ms: the card shows ${JSON.stringify(await card.textContent())}`);
    });
}

describe('the admin view in Chromium', () => {
  it('refuses a request without the token; ?token= once, then a cookie', async () => {
    const refused = await page.goto(`${base()}/admin/cluster`);
    expect(refused?.status()).toBe(401);
    expect(await page.textContent('h1')).toBe('Admin token required');
    const res = await page.goto(`${base()}/admin?token=${TOKEN}`);
    expect(res?.status()).toBe(200);
    expect(page.url()).toBe(`${base()}/admin/cluster`); // the token left the address bar
    const cookie = (await browser.context.cookies()).find((c) => c.name === 'sfdb_admin');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin' });
    expect(cookie?.value).not.toContain(TOKEN);
  });

  it('loads the Cluster page with every replica and node, keyboard first', async () => {
    await page.goto(`${base()}/admin/cluster`);
    for (const t of [a, b]) {
      const card = page.locator(`[id="replica-${t.config.replicaId}"]`);
      await liveWithin(card, `replica ${t.config.replicaId}`);
      expect(await card.locator('[data-fact="version"] dd').textContent()).toMatch(/^\d+\.\d+\.\d+$/); // the peer's from its own HTTP port
    }
    expect(await page.locator('[data-node]').count()).toBe(3);
    for (const n of sim.nodes) {
      const card = page.locator(`#node-${n.uuid}`);
      expect(await card.locator('h3').textContent()).toBe(n.fqdn);
      await liveWithin(card, `node ${n.fqdn}`);
      expect(await card.locator('tr[data-daemon="agent"] .state').textContent()).toBe('RUNNING');
      expect(await card.locator('tr[data-daemon="queues"] .state').textContent()).toBe('RUNNING');
      expect(await card.locator('.stats dt').count()).toBeGreaterThan(0);
    }
    expect(await page.getAttribute('body', 'data-live')).toMatch(/on|following/);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Cluster');
  });

  it('turns a node stale within its bound when its heartbeat stops, without a reload', async () => {
    await page.goto(`${base()}/admin/cluster`);
    await page.evaluate('window.__sameDocument = true');
    const victim = sim.nodes[2];
    if (!victim) throw new Error('no third node');
    const badge = `#node-${victim.uuid} [data-liveness]`;
    expect(await page.textContent(badge)).toBe('live');
    const stopped = performance.now();
    await victim.agent.stop(); // no heartbeat after this
    await page.locator(`${badge}:text-is("stale")`).waitFor({ timeout: NODE_LIVE_MS + 3000 });
    const ms = performance.now() - stopped;
    expect(ms).toBeLessThanOrEqual(NODE_LIVE_MS + 1500);
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
    for (const n of sim.nodes.slice(0, 2)) expect(await page.textContent(`#node-${n.uuid} [data-liveness]`)).toBe('live');
  });

  it('shows a daemon stopped through sf-ctl stop-daemon as STOPPED within 1 s', async () => {
    await page.goto(`${base()}/admin/cluster`);
    const node = sim.nodes[0];
    if (!node) throw new Error('no first node');
    const cell = `#node-${node.uuid} tr[data-daemon="queues"] .state`;
    expect(await page.textContent(cell)).toBe('RUNNING');
    // The page notes (wall clock, the database's on this host) when it first shows STOPPED.
    await page.evaluate(`new MutationObserver((_, o) => {
      if (document.querySelector('${cell}')?.textContent !== 'STOPPED') return;
      window.__stoppedSeenAt = Date.now();
      o.disconnect();
    }).observe(document.body, { subtree: true, childList: true, characterData: true })`);
    // sf-ctl on replica A; the daemon runs on replica B: the stop crosses replicas both ways.
    const ctl = await runCtl(['--target', `127.0.0.1:${a.tier.grpcPort}`, 'stop-daemon', node.uuid, 'queues']);
    expect(ctl.code, ctl.stderr).toBe(0);
    await page.locator(`${cell}:text-is("STOPPED")`).waitFor({ timeout: 1000 });
    const state = await sim.db.getNodeDaemonState(node.uuid, 'queues');
    expect(state?.state).toBe('STOPPED');
    // An operator stop holds the daemon stopped, and the row says so.
    expect(state?.operatorHold).toBe(true);
    expect(await page.textContent(`#node-${node.uuid} tr[data-daemon="queues"] .hold`)).toBe('held');
    expect(await page.locator(`#node-${node.uuid} tr[data-daemon="agent"] .hold`).count()).toBe(0);
    const seenAt = Number(await page.evaluate('window.__stoppedSeenAt'));
    expect(seenAt - Date.parse(state?.updatedAt ?? '')).toBeLessThanOrEqual(1000);
  });

  it('shows an object created in another process on its page within 1 s', async () => {
    await page.goto(`${base()}/admin/objects?namespace=${NS}&type=instance&limit=10`);
    expect(await uuidsOnPage()).toEqual(seeded.slice(0, 10));
    expect(await page.content()).not.toContain('do-not-show');
    const low = seeded[0] as string;
    const high = seeded[9] as string;
    do created = randomUUID();
    while (!(created > low && created < high));
    // Through replica B; the page is served by replica A.
    const child = await runTs('test/browser/create-object.ts', [`127.0.0.1:${b.tier.grpcPort}`, NS, created]);
    expect(child.code, child.stderr).toBe(0);
    const answered = performance.now();
    await page.waitForSelector(`#obj-${created}`, { timeout: 1000 });
    expect(performance.now() - answered).toBeLessThanOrEqual(1000);
    const rows = await uuidsOnPage();
    expect(rows).toEqual([...seeded.slice(0, 10), created].sort()); // in its place, the rest unmoved
    expect(await page.getAttribute(`#obj-${created}`, 'class')).toBe('new');
  });

  it('keeps paging stable while rows are inserted', async () => {
    await page.goto(`${base()}/admin/objects?namespace=${NS}&type=instance&limit=10`);
    const shown = await uuidsOnPage();
    let inserting = true;
    const inserted: string[] = [];
    const inserter = (async () => {
      while (inserting) {
        const uuid = randomUUID();
        await sim.db.createInstance({ uuid, namespace: NS, staticValues: {} });
        inserted.push(uuid);
        await sleep(25);
      }
    })();
    await sleep(1500);
    const now = await uuidsOnPage();
    expect(now.filter((u) => shown.includes(u))).toEqual(shown); // nothing moved or vanished
    expect(now).toEqual([...now].sort());
    const seen = [...now];
    for (let pages = 1; (await page.locator('a[rel="next"]').count()) > 0; pages++) {
      const href = (await page.getAttribute('a[rel="next"]', 'href')) ?? '';
      await page.click('a[rel="next"]');
      await page.waitForURL(`${base()}${href}`);
      seen.push(...(await uuidsOnPage()));
      if (pages > 200) throw new Error('paging did not end');
    }
    inserting = false;
    await inserter;
    expect(inserted.length).toBeGreaterThan(10);
    expect(new Set(seen).size).toBe(seen.length); // no row twice
    expect(seen).toEqual([...seen].sort()); // none out of place: nothing skipped between pages
    for (const u of [...seeded, created]) expect(seen).toContain(u);
  });
});
