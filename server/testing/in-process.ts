// Replicas of a TierCluster (cluster.ts) as Tiers in this process: sf-database/testing's
// and the integration tests'. A replica's settings are parsed before the cluster starts
// (a bad one starts nothing); its ports are whatever its config says (0: any free port).
import type { Logger } from '@sfdb/proto/runtime/log';
import type { Config } from '../config.js';
import { Tier } from '../tier.js';
import type { ReplicaLauncher } from './cluster.js';

export interface InProcessPlan {
  /** The replica's key in the cluster (its replica id, unless the caller names it otherwise). */
  readonly name: string;
  readonly config: Config;
}

/** Starts each plan as `Tier.start(config, url, logger(config))`; stops it with `tier.stop()`. */
export function inProcessReplicas(logger: (config: Config) => Logger): ReplicaLauncher<InProcessPlan, Tier> {
  return {
    start: (plan, databaseUrl) => Tier.start(plan.config, databaseUrl, logger(plan.config)),
    stop: (tier) => tier.stop(),
  };
}
