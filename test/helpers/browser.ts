// A real browser for the admin view's tests and screenshots: Debian's Chromium
// (/usr/bin/chromium) driven by playwright-core, headless, in a fresh profile directory
// removed on close. Never a downloaded browser (no `npx playwright install`): when
// Chromium is missing, launching fails with the command that installs it.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_MISSING =
  `Chromium is not installed at ${CHROMIUM}, and the admin view's browser tests need it: ` +
  'install Debian\'s package with `sudo apt-get install -y chromium` (bash .ci/run does it when missing), then run them again';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh --user-data-dir; throws CHROMIUM_MISSING when it is not installed. */
export async function launchBrowser(opts: { viewport?: { width: number; height: number } } = {}): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(CHROMIUM_MISSING);
  const profile = mkdtempSync(join(tmpdir(), 'sfdb-chromium-'));
  let context: BrowserContext;
  try {
    // A persistent context is how playwright takes a --user-data-dir of our own.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: opts.viewport ?? { width: 1280, height: 900 },
      timeout: 30_000,
    });
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
