// The gauges operators size and alert with, read from a real tier's /metrics: the live
// cluster size (the load model's inputs), the MariaDB pool and the waiter cap.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { metricValue } from '../../harness/scrape.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier({ env: { SFDB_POOL_SIZE: '7', SFDB_CHANGEFEED_MAX_WAITERS: '321' } });

describe('operations gauges on /metrics', () => {
  it('reports the live cluster size: live and stale nodes, standing instances, live replicas', async () => {
    const live = randomUUID();
    const stale = randomUUID();
    await db.createNode({ uuid: live, fqdn: `live-${live}.test` });
    await db.createNode({ uuid: stale, fqdn: `stale-${stale}.test` }); // never heartbeats
    await db.nodeHeartbeat(live, {});
    const standing = [randomUUID(), randomUUID()];
    const gone = randomUUID();
    for (const uuid of [...standing, gone]) await db.createInstance({ uuid, nodeUuid: live, staticValues: { name: uuid } });
    await db.setObjectState('INSTANCE', standing[0] as string, 'CREATED', '');
    await db.setObjectState('INSTANCE', gone, 'DELETED', '');

    const text = await t.metrics();
    expect(metricValue(text, 'database_cluster_nodes', { state: 'live' })).toBe(1);
    expect(metricValue(text, 'database_cluster_nodes', { state: 'stale' })).toBe(1);
    expect(metricValue(text, 'database_cluster_instances')).toBe(2);
    expect(metricValue(text, 'database_cluster_replicas_live')).toBe(1);
    expect(text).toMatch(/database_periodic_task_interval_seconds\{task="cluster_size",source="registry",duty="[^"]+"\} 30\n/);
  });

  it('reports the pool: its limit, busy and idle connections, statements queued', async () => {
    await db.getClusterStatus(); // at least one connection opened
    const text = await t.metrics();
    expect(metricValue(text, 'database_pool_connection_limit')).toBe(7);
    const busy = metricValue(text, 'database_pool_connections', { state: 'busy' });
    const idle = metricValue(text, 'database_pool_connections', { state: 'idle' });
    expect(busy + idle).toBeGreaterThanOrEqual(1);
    expect(busy + idle).toBeLessThanOrEqual(7);
    expect(text).toMatch(/^database_pool_queued 0$/m);
  });

  it('reports the change-feed waiter cap', async () => {
    expect(metricValue(await t.metrics(), 'database_changefeed_waiter_limit')).toBe(321);
  });
});
