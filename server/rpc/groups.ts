// The writes the tier group-commits (server/db/group-commit.ts), collected here as
// server/rpc/index.ts collects handlers: the frequent single-row writes every node makes
// on a period. Each family writes its own kinds, beside the handler that submits to them:
// NodeHeartbeat in nodes/writes.ts, SetNodeDaemonState in daemon-state/writes.ts,
// SetObjectAttributes in objects/attribute-writes.ts. Handlers reach them through
// CallContext.groups; no family's write path imports a handler, so the context's types
// import this list without a circle.
import type { ChangeFeed } from '../changefeed/feed.js';
import { GroupCommit } from '../db/group-commit.js';
import type { BatchKind, GroupCommitOptions } from '../db/group-commit.js';
import type { Sql } from '../db/sql.js';
import type { Metrics } from '../metrics.js';
import type { Clock } from '@sfdb/proto/runtime/clock';
import { daemonStateKind } from './daemon-state/writes.js';
import type { DaemonStateWrite, DaemonStateWritten } from './daemon-state/writes.js';
import { heartbeatKind } from './nodes/writes.js';
import type { Heartbeat } from './nodes/writes.js';
import type { AttributeWrite } from './objects/attribute-queries.js';
import { attributesKind } from './objects/attribute-writes.js';

export interface GroupKinds {
  heartbeat: BatchKind<Heartbeat, string>;
  daemonState: BatchKind<DaemonStateWrite, DaemonStateWritten>;
  nodeAttributes: BatchKind<AttributeWrite, void>;
  objectAttributes: BatchKind<AttributeWrite, void>;
}

/** The tier's group commit and its kinds. */
export interface Groups {
  readonly commit: GroupCommit;
  readonly kinds: GroupKinds;
}

/** What handlers reach through CallContext.groups: group commit, submitting as the call (its owner shares the batch's seconds). */
export interface CallGroups {
  readonly commit: {
    readonly enabled: boolean;
    submit<R, A>(kind: BatchKind<R, A>, row: R): Promise<A>;
  };
  readonly kinds: GroupKinds;
}

export function createGroups(options: GroupCommitOptions, sql: Sql, feed: ChangeFeed, metrics: Metrics, clock: Clock): Groups {
  const kinds: GroupKinds = {
    heartbeat: heartbeatKind(sql),
    daemonState: daemonStateKind(sql, feed),
    nodeAttributes: attributesKind(sql, 'node_attributes', true),
    objectAttributes: attributesKind(sql, 'object_attributes', false),
  };
  return { commit: new GroupCommit(options, metrics, clock), kinds };
}
