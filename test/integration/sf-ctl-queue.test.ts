// `sf-ctl queue` against a real tier: an item shown by id with every field (once as the
// operator runs it, a child process; the rest through sf-ctl's own main() in this
// process, a process start each being 4 s on a loaded machine), a node's queue listed by
// fqdn and state, the --limit note, and the exit codes (1 no such item, 2 bad arguments).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseClient, WorkItem } from '../../client/index.js';
import { main } from '../../ops/ctl/ctl.js';
import { runCtl as ctl } from '../helpers/sf-ctl.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let t: TestTier;
let db: DatabaseClient;
let target: string;

beforeAll(async () => {
  t = await startTestTier();
  db = t.client({ cache: false, feed: false });
  target = `127.0.0.1:${t.tier.grpcPort}`;
});
afterAll(async () => {
  await t.stop();
});

/** sf-ctl's main() in this process: its exit code, stdout and stderr lines. */
async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  const lines: string[] = [];
  const code = await main(['--target', target, 'queue', ...args], { out: (text) => void (stdout += text), note: (line) => void lines.push(line), env: {} });
  return { code, stdout, stderr: lines.join('\n') };
}

describe('sf-ctl queue', () => {
  it('shows an item by id, lists a queue by state, and exits 1 or 2 when it should', async () => {
    const uuid = randomUUID();
    const fqdn = `queue-${uuid.slice(0, 8)}.example.com`;
    await db.createNode({ uuid, fqdn });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = randomUUID();
      await db.enqueue({ id, nodeUuid: uuid, queue: 'jobs', payload: { i } });
      ids.push(id);
    }
    const [claim] = await db.dequeue({ nodeUuid: uuid, queues: ['jobs'], holder: 'worker-7' });
    await db.resolve(claim?.item.id ?? '', claim?.epoch ?? '', 'FAILED', { reason: 'disk full' });
    const failed = ids[0] as string;

    const json = await ctl(['--target', target, 'queue', 'item', failed, '--json']);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(await db.getWorkItem(failed));
    const text = await run(['item', failed]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^state\s+FAILED$/m);
    expect(text.stdout).toMatch(/^attempts\s+1$/m);
    expect(text.stdout).toMatch(/^result\s+\{"reason": ?"disk full"\}$/m);

    const queued = await run(['list', fqdn, 'jobs', '--state', 'queued', '--json']);
    expect(queued.code).toBe(0);
    expect((JSON.parse(queued.stdout) as { items: WorkItem[]; more: boolean })).toMatchObject({ node: uuid, more: false, items: ids.slice(1).map((id) => ({ id, state: 'QUEUED' })) });
    const limited = await run(['list', uuid, 'jobs', '--limit', '2']);
    expect(limited.code).toBe(0);
    expect(limited.stdout).toMatch(new RegExp(`^${failed}\\s+FAILED\\s+1\\s+1\\s`, 'm'));
    expect(limited.stdout).toContain('(more: raise --limit');

    const missing = await run(['item', randomUUID()]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no work item with id/);
    for (const args of [['item', 'nope'], ['list', fqdn, 'jobs', '--state', 'DONE'], ['list', fqdn, 'jobs', '--limit', '0'], ['list', 'no-such.example.com', 'jobs'], ['list', fqdn], ['show']]) {
      const bad = await run(args);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});
