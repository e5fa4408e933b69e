import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidArgument } from '../../client/index.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

describe('daemon state', () => {
  it('sets, reads and lists daemon states', async () => {
    const node = randomUUID();
    await db.createNode({ uuid: node, fqdn: `${node}.ds.example` });
    expect(await db.getNodeDaemonState(node, 'queues')).toBeUndefined();
    const set = await db.setNodeDaemonState(node, 'queues', 'RUNNING', 'working');
    expect(set).toMatchObject({ nodeUuid: node, daemon: 'queues', state: 'RUNNING', message: 'working' });
    await db.setNodeDaemonState(node, 'net', 'IDLE');
    const stopping = await db.setNodeDaemonState(node, 'queues', 'STOPPING', 'operator');
    expect(await db.getNodeDaemonState(node, 'queues')).toEqual(stopping);
    expect((await db.listNodeDaemonStates(node)).map((s) => [s.daemon, s.state])).toEqual([
      ['net', 'IDLE'],
      ['queues', 'STOPPING'],
    ]);
  });

  it('refuses bad input naming the field and writes nothing', async () => {
    const cases: [() => Promise<unknown>, string][] = [
      [() => db.setNodeDaemonState('nope', 'queues', 'RUNNING'), 'node_uuid'],
      [() => db.setNodeDaemonState(randomUUID(), 'Bad Name', 'RUNNING'), 'daemon'],
      [() => db.call('SetNodeDaemonState', { nodeUuid: randomUUID(), daemon: 'queues', state: 99 as never }), 'state'],
      [() => db.call('SetNodeDaemonState', { nodeUuid: randomUUID(), daemon: 'queues' }), 'state'],
      [() => db.setNodeDaemonState(randomUUID(), 'queues', 'RUNNING', 'm'.repeat(1025)), 'message'],
    ];
    const before = await t.count('node_daemon_states');
    for (const [call, field] of cases) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, field).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field).toBe(field);
    }
    expect(await t.count('node_daemon_states')).toBe(before);
  });
});
