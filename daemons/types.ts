// The shapes a daemon is made of, apart from its class (daemon.ts), so that the parts it
// is built from (idle.ts, operator-hold.ts, state-poll.ts) and its users can name them.
import type { ChangeWaiter, Clock, DatabaseClient, FeedChange } from '@sfdb/client';
import type { Logger } from '@sfdb/proto/runtime/log';
import type { DaemonHooks } from './hooks.js';
import type { DaemonSettings } from './settings.js';

/** The calls every daemon makes; subclasses ask for more. `changes`: the client's change waiter (feed mode). */
export type DaemonDb = Pick<DatabaseClient, 'getNode' | 'getNodeDaemonState' | 'setNodeDaemonState'> & { readonly changes?: ChangeWaiter };

/** What changed on a daemon's work topics since it last asked; `resync`: re-read everything. */
export interface WorkChanges {
  changes: FeedChange[];
  resync: boolean;
}

/** `held`: started while an operator holds it stopped; it waits for an operator start (operator-hold.ts). */
export type DaemonState = 'new' | 'starting' | 'held' | 'running' | 'stopping' | 'stopped' | 'failed';

export interface DaemonOptions<Db extends DaemonDb> {
  /** The daemon's name: its daemon-state key and its caller identity. */
  name: string;
  nodeUuid: string;
  /** A client whose caller identity is this daemon (createClient({ callerDaemon: name, callerNode })). */
  db: Db;
  settings?: DaemonSettings;
  clock?: Clock;
  log?: Logger;
  hooks?: DaemonHooks;
}
