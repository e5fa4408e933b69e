import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Fenced, InvalidArgument, heldByOperator } from '../../client/index.js';
import { topics } from '../../proto/topics.js';
import { ALONE } from '../../server/db/group-commit.js';
import { FencedError } from '../../server/errors.js';
import { newNode } from '../helpers/targets.js';
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
    const { changeSeq, ...stopping } = await db.setNodeDaemonState(node, 'queues', 'STOPPING', 'operator');
    expect(await db.getNodeDaemonState(node, 'queues')).toEqual(stopping);
    // The write names the change it published on the daemon's state topic.
    expect(await t.count('changes', 'topic = ? AND seq = ?', [topics.daemonState(node, 'queues'), changeSeq])).toBe(1);
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
      [() => db.call('SetNodeDaemonState', { nodeUuid: randomUUID(), daemon: 'queues', state: 'STOPPING', operatorHold: 7 as never }), 'operator_hold'],
      [() => db.setNodeDaemonState(randomUUID(), 'queues', 'RUNNING', '', { operatorHold: 'set' }), 'operator_hold'],
    ];
    const before = await t.count('node_daemon_states');
    for (const [call, field] of cases) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, field).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field).toBe(field);
    }
    expect(await t.count('node_daemon_states')).toBe(before);
  });

  it('an operator hold outlives the daemon: RUNNING and IDLE refused (nothing written, nothing published) until released', async () => {
    const node = await newNode(db);
    const changes = () => t.count('changes', 'topic = ?', [topics.daemonState(node, 'queues')]);
    await db.setNodeDaemonState(node, 'queues', 'RUNNING');
    const stopping = await db.setNodeDaemonState(node, 'queues', 'STOPPING', 'sf-ctl stop-daemon', { operatorHold: 'set' });
    expect(stopping).toMatchObject({ state: 'STOPPING', operatorHold: true });
    // The daemon's own writes leave the hold as it is.
    const { changeSeq, ...stopped } = await db.setNodeDaemonState(node, 'queues', 'STOPPED', 'stopped (operator)');
    expect(changeSeq).not.toBe('0');
    expect(stopped).toMatchObject({ state: 'STOPPED', message: 'stopped (operator)', operatorHold: true });
    const published = await changes();
    for (const state of ['RUNNING', 'IDLE'] as const) {
      const err = await db.setNodeDaemonState(node, 'queues', state, 'restarted').then(() => undefined, (e: unknown) => e);
      expect(err, state).toBeInstanceOf(Fenced);
      expect(heldByOperator(err), state).toBe(true);
      expect((err as Fenced).message).toMatch(new RegExp(`daemon queues on node ${node} is held stopped by an operator: ${state} not recorded; sf-ctl start-daemon`));
    }
    expect(await db.getNodeDaemonState(node, 'queues')).toEqual(stopped);
    expect(await changes()).toBe(published);

    const released = await db.setNodeDaemonState(node, 'queues', 'STARTING', 'sf-ctl start-daemon', { operatorHold: 'release' });
    expect(released).toMatchObject({ state: 'STARTING', operatorHold: false });
    expect(await db.setNodeDaemonState(node, 'queues', 'RUNNING')).toMatchObject({ state: 'RUNNING', operatorHold: false });
    expect((await db.listNodeDaemonStates(node)).map((s) => [s.daemon, s.state, s.operatorHold])).toEqual([['queues', 'RUNNING', false]]);
  });

  it('in a group-committed batch, a held daemon\'s RUNNING is left out and handed back to run alone', async () => {
    const node = await newNode(db);
    await db.setNodeDaemonState(node, 'held', 'STOPPED', 'sf-ctl stop-daemon', { operatorHold: 'set' });
    const published = await t.count('changes', 'topic = ?', [topics.daemonState(node, 'held')]);
    const kind = t.tier.groups.kinds.daemonState;
    const answers = await kind.batch(['a', 'held', 'b'].map((daemon) => ({ nodeUuid: node, daemon, state: 'RUNNING', message: '', reported: false })));
    expect(answers.map((a) => (a === ALONE ? 'alone' : (a as { row: { state: string } }).row.state))).toEqual(['RUNNING', 'alone', 'RUNNING']);
    // Each written one is answered the seq of the change it published on its own topic.
    for (const [i, daemon] of [[0, 'a'], [2, 'b']] as const) {
      const seq = (answers[i] as { changeSeq: string }).changeSeq;
      expect(await t.count('changes', 'topic = ? AND seq = ?', [topics.daemonState(node, daemon), seq])).toBe(1);
    }
    expect((await db.listNodeDaemonStates(node)).map((s) => [s.daemon, s.state, s.operatorHold])).toEqual([
      ['a', 'RUNNING', false],
      ['b', 'RUNNING', false],
      ['held', 'STOPPED', true],
    ]);
    expect(await t.count('changes', 'topic = ?', [topics.daemonState(node, 'held')])).toBe(published);
    // Alone, it is refused.
    const alone = await kind.alone({ nodeUuid: node, daemon: 'held', state: 'RUNNING', message: '', reported: false }).then(() => undefined, (e: unknown) => e);
    expect(alone).toBeInstanceOf(FencedError);
  });
});
