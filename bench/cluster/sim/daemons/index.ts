// The seven simulated daemon types of a node (protocol.ts DAEMON_TYPES), each a framework
// class: QueuesDaemon (queues, net), ClusterDaemon (cluster), Daemon (the others).
import type { DatabaseClient } from '../../../../client/index.js';
import type { Daemon, DaemonOptions } from '../../../../daemons/index.js';
import type { DaemonType } from '../../protocol.js';
import type { SimContext } from '../hooks.js';
import { SimCleanerDaemon } from './cleaner.js';
import { SimClusterDaemon } from './maintenance.js';
import { SimQueuesDaemon } from './queues.js';
import { SimResourcesDaemon } from './resources.js';
import { SimSidechannelDaemon } from './sidechannel.js';
import { SimTransfersDaemon } from './transfers.js';

/** Any simulated daemon, as the cluster holds it. */
export type AnyDaemon = Pick<Daemon, 'name' | 'nodeUuid' | 'start' | 'stop' | 'done' | 'snapshot'>;

type Build = (options: DaemonOptions<DatabaseClient>, sim: SimContext) => AnyDaemon;

export const DAEMON_CLASSES: Record<DaemonType, Build> = {
  queues: (o, s) => new SimQueuesDaemon(o, s),
  net: (o, s) => new SimQueuesDaemon(o, s),
  transfers: (o, s) => new SimTransfersDaemon(o, s),
  sidechannel: (o, s) => new SimSidechannelDaemon(o, s),
  resources: (o, s) => new SimResourcesDaemon(o, s),
  cleaner: (o, s) => new SimCleanerDaemon(o, s),
  cluster: (o, s) => new SimClusterDaemon(o, s),
};
