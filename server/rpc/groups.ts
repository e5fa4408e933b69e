// What handlers reach through CallContext.groups: the group commit and its kinds, as types
// only, so that the RPC context imports them without the kinds' implementation
// (server/rpc/group-kinds.ts), which calls into handlers' write paths.
import type { BatchKind, GroupCommit } from '../db/group-commit.js';
import type { DaemonStateRow, HoldChange } from './daemon-state/queries.js';
import type { AttributeWrite } from './objects/attribute-queries.js';

export interface Heartbeat {
  nodeUuid: string;
  stats: string;
}

export interface DaemonStateWrite {
  nodeUuid: string;
  daemon: string;
  state: string;
  message: string;
  /** An operator's stop or start; undefined (every other write, and all grouped ones): the hold stays. */
  hold?: HoldChange;
  /** Written by the daemon itself (caller node and daemon are the state's, no hold change): its change is kind 'reported'. */
  reported: boolean;
}

/** A daemon state as written, and the seq of the change it published on its topic ('0': none). */
export interface DaemonStateWritten {
  row: DaemonStateRow;
  changeSeq: string;
}

export interface GroupKinds {
  heartbeat: BatchKind<Heartbeat, string>;
  daemonState: BatchKind<DaemonStateWrite, DaemonStateWritten>;
  nodeAttributes: BatchKind<AttributeWrite, void>;
  objectAttributes: BatchKind<AttributeWrite, void>;
}

/** What handlers reach through CallContext.groups. */
export interface Groups {
  readonly commit: GroupCommit;
  readonly kinds: GroupKinds;
}
