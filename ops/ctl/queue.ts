// `sf-ctl queue item ID` and `sf-ctl queue list NODE QUEUE [--state S] [--limit N]`: work
// items as the tier holds them (GetWorkItem, ListWorkItems), for an operator asking why an
// item has not run, what it answered, or what a node's queue holds. Reads only; a list
// follows pages until --limit items.
import type { DatabaseClient, WorkItem, WorkItemState } from '@sfdb/client';
import { UUID_PATTERN } from '@sfdb/proto/identity';
import { EXIT, GLOBAL_HELP, UsageError, flag, str } from './cli.js';
import type { Command, Io, Parsed } from './cli.js';
import { withTier } from './connect.js';
import { findNode } from './daemon-target.js';
import { table } from './format.js';

const HELP = `usage: sf-ctl queue item ID [--json]
       sf-ctl queue list NODE QUEUE [--state S] [--limit N] [--json]

item: one work item by id, every field: state, attempts, epoch, the claim's holder and
      expiry (while CLAIMED), when it is due, its last release message, its payload and
      result (JSON), created and updated times (database time).
list: the items of queue QUEUE on node NODE (a node uuid, or its fqdn), finished ones
      included: with --state, in queue order; without, grouped by state (CLAIMED, FAILED,
      QUEUED, SUCCEEDED), each in queue order. Payloads and results are left out (see item).

  --state S   QUEUED, CLAIMED, SUCCEEDED or FAILED (default: every state)
  --limit N   at most N items (default 100; 1..10000); a note says when there are more

exit: 0 shown, 1 no item with that id, 2 bad arguments (or no such node), 3 the replica is unreachable

${GLOBAL_HELP}`;

const STATES: readonly WorkItemState[] = ['QUEUED', 'CLAIMED', 'SUCCEEDED', 'FAILED'];
const QUEUE_NAME = /^[a-z0-9][a-z0-9_.:-]*$/;
const MAX_LIMIT = 10_000;

/** The calls the queue command makes. */
export type QueueCtlDb = Pick<DatabaseClient, 'getNode' | 'getNodeByFqdn' | 'getWorkItem' | 'listWorkItems'>;

/** One item, a field a line; payload and result last (they can be long). */
export function itemText(i: WorkItem): string {
  const claim = i.state === 'CLAIMED' ? `${i.claimHolder || '(no holder)'} until ${i.claimExpiresAt}` : '-';
  const rows: [string, string][] = [
    ['id', i.id],
    ['node', i.nodeUuid],
    ['queue', i.queue],
    ['state', String(i.state)],
    ['attempts', String(i.attempts)],
    ['epoch', i.epoch],
    ['claim', claim],
    ['due', i.notBefore],
    ['message', i.message.replace(/\s+/g, ' ') || '-'],
    ['created', i.createdAt],
    ['updated', i.updatedAt],
    ['payload', i.payload],
    ['result', i.result || '-'],
  ];
  return rows.map(([k, v]) => `${k.padEnd(9)}${v}`).join('\n') + '\n';
}

export function listText(items: readonly WorkItem[], more: boolean): string {
  const rows = items.map((i) => [
    i.id,
    String(i.state),
    String(i.attempts),
    i.epoch,
    i.state === 'CLAIMED' ? i.claimHolder : '',
    i.notBefore,
    i.updatedAt,
    i.message.replace(/\s+/g, ' '),
  ]);
  const body = table(['ID', 'STATE', 'ATTEMPTS', 'EPOCH', 'HOLDER', 'DUE', 'UPDATED', 'MESSAGE'], rows, [2, 3]);
  return more ? `${body}(more: raise --limit, or narrow with --state)\n` : body;
}

/** Up to `limit` items of the queue, following pages; `more` when items were left. */
export async function listQueue(db: QueueCtlDb, nodeRef: string, queue: string, state: WorkItemState | undefined, limit: number): Promise<{ node: string; items: WorkItem[]; more: boolean }> {
  const node = await findNode(db, nodeRef);
  const items: WorkItem[] = [];
  let pageToken = '';
  do {
    const page = await db.listWorkItems({ nodeUuid: node.uuid, queue, pageSize: Math.min(1000, limit - items.length), pageToken, ...(state ? { state } : {}) });
    items.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken !== '' && items.length < limit);
  // A page is never longer than asked, and a token means at least one more item.
  return { node: node.uuid, items, more: pageToken !== '' };
}

function limitArg(raw: string | undefined): number {
  if (raw === undefined) return 100;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > MAX_LIMIT) throw new UsageError(`--limit: "${raw}" is not a count 1..${MAX_LIMIT}`);
  return n;
}

function stateArg(raw: string | undefined): WorkItemState | undefined {
  if (raw === undefined) return undefined;
  const s = raw.toUpperCase() as WorkItemState;
  if (!STATES.includes(s)) throw new UsageError(`--state: "${raw}" is not one of ${STATES.join(', ')}`);
  return s;
}

async function run(parsed: Parsed, io: Io): Promise<number> {
  const [what, ...args] = parsed.positionals;
  const json = flag(parsed.values, 'json');
  const target = str(parsed.values, 'target');
  if (what === 'item' && args.length === 1) {
    const id = args[0] as string;
    if (!UUID_PATTERN.test(id)) throw new UsageError(`ID: "${id}" is not a work item id (a lower-case uuid)`);
    const item = await withTier(target, ({ db }) => db.getWorkItem(id));
    if (!item) {
      io.note(`no work item with id ${id}`);
      return EXIT.failed;
    }
    io.out(json ? `${JSON.stringify(item, null, 2)}\n` : itemText(item));
    return EXIT.ok;
  }
  if (what === 'list' && args.length === 2) {
    const [nodeRef, queue] = args as [string, string];
    if (!QUEUE_NAME.test(queue) || queue.length > 64) throw new UsageError(`QUEUE: "${queue}" is not a queue name ([a-z0-9][a-z0-9_.:-]*, at most 64)`);
    const state = stateArg(str(parsed.values, 'state'));
    const limit = limitArg(str(parsed.values, 'limit'));
    const r = await withTier(target, ({ db }) => listQueue(db, nodeRef, queue, state, limit));
    io.out(json ? `${JSON.stringify(r, null, 2)}\n` : listText(r.items, r.more));
    return EXIT.ok;
  }
  throw new UsageError('queue: expected `item ID` or `list NODE QUEUE`; see sf-ctl queue --help');
}

export const queueCommand: Command = {
  name: 'queue',
  summary: 'work items: one by id (queue item ID), or a node\'s queue by state (queue list NODE QUEUE)',
  help: HELP,
  options: { state: { type: 'string' }, limit: { type: 'string' } },
  positionals: true,
  run,
};
