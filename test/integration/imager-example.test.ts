// examples/imager.ts, the daemon of one's own docs/daemons.md shows, run as its author
// would test it: against `sf-database/testing`'s tier (on this run's private mariadbd).
// Two imagers on two nodes: each builds what is enqueued for its node; one only is
// elected, and it alone schedules the base image's rebuild; the tier counts the daemon's
// calls under its own name, with no change to the tier's settings.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createClient } from '@sfdb/client';
import type { DatabaseClient } from '@sfdb/client';
import { daemonSettings } from '@sfdb/daemon';
import { startTestTier } from 'sf-database/testing';
import type { TestTier } from 'sf-database/testing';
import { BUILD_QUEUE, ImagerDaemon } from '../../examples/imager.js';
import { metricValue, scrapeText } from '../../harness/scrape.js';
import { waitFor } from '../helpers/wait.js';

let tier: TestTier;
const clients: DatabaseClient[] = [];

beforeAll(async () => {
  tier = await startTestTier({ mariadbUrl: `mysql://root@127.0.0.1:${inject('mariadbPort')}` });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await tier?.stop();
});

async function imagerOn(): Promise<{ nodeUuid: string; db: DatabaseClient; daemon: ImagerDaemon }> {
  const nodeUuid = randomUUID();
  const db = createClient({ targets: tier.targets, callerDaemon: 'imager', callerNode: nodeUuid });
  clients.push(db);
  await db.createNode({ uuid: nodeUuid, fqdn: `imager-${nodeUuid.slice(0, 8)}.example` });
  const daemon = new ImagerDaemon({ name: 'imager', nodeUuid, db, rebuildEveryMs: 3_600_000, settings: daemonSettings({}, { logLevel: 'silent' }) });
  return { nodeUuid, db, daemon };
}

describe('examples/imager.ts', () => {
  it('builds what is enqueued for its node; the elected one alone schedules the rebuild; counted as imager', async () => {
    const a = await imagerOn();
    const b = await imagerOn();
    await a.daemon.start();
    await b.daemon.start();
    try {
      await a.db.enqueue({ id: randomUUID(), nodeUuid: a.nodeUuid, queue: BUILD_QUEUE, payload: { image: 'web' } });
      await b.db.enqueue({ id: randomUUID(), nodeUuid: b.nodeUuid, queue: BUILD_QUEUE, payload: { image: 'db' } });
      const look = () => ({ a: [...a.daemon.builtImages()], b: [...b.daemon.builtImages()], elected: [a.daemon.isElected(), b.daemon.isElected()] });
      await waitFor('each built its own image, and the elected one the base image', 30_000, () => {
        const seen = look();
        const all = [...seen.a, ...seen.b];
        return { ok: seen.a.includes('web') && seen.b.includes('db') && all.includes('base'), seen };
      });
      const seen = look();
      // One holder: the base image was scheduled (and built) on its node alone, once.
      expect(seen.elected.filter(Boolean)).toHaveLength(1);
      const elected = seen.elected[0] ? seen.a : seen.b;
      const standby = seen.elected[0] ? seen.b : seen.a;
      expect(elected.filter((i) => i === 'base')).toEqual(['base']);
      expect(standby).not.toContain('base');
      const text = await scrapeText(tier.replicas[0]!.httpPort);
      expect(metricValue(text, 'database_requests_total', { operation: 'AcquireLease', caller_daemon: 'imager' })).toBeGreaterThanOrEqual(2);
      expect(metricValue(text, 'database_requests_total', { operation: 'Dequeue', caller_daemon: 'imager' })).toBeGreaterThanOrEqual(2);
    } finally {
      await a.daemon.stop();
      await b.daemon.stop();
    }
  });
});
