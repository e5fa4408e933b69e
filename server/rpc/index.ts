// Every RPC of the Database service, from its family. The type makes a missing handler
// a compile error.
import type { MethodName } from '@sfdb/proto/types';
import type { Handlers } from './context.js';
import { changeHandlers } from './changes/handlers.js';
import { clusterConfigHandlers } from './cluster-config/handlers.js';
import { daemonStateHandlers } from './daemon-state/handlers.js';
import { eventHandlers } from './events/handlers.js';
import { ipamHandlers } from './ipam/handlers.js';
import { leaseHandlers } from './leases/handlers.js';
import { maintenanceHandlers } from './maintenance/handlers.js';
import { nodeHandlers } from './nodes/handlers.js';
import { objectHandlers } from './objects/handlers.js';
import { queueHandlers } from './queue/handlers.js';
import { queueReadHandlers } from './queue/reads.js';
import { referenceHandlers } from './references/handlers.js';
import { transferHandlers } from './transfers/handlers.js';

export const allHandlers: Handlers<MethodName> = {
  ...nodeHandlers,
  ...daemonStateHandlers,
  ...objectHandlers,
  ...queueHandlers,
  ...queueReadHandlers,
  ...leaseHandlers,
  ...ipamHandlers,
  ...referenceHandlers,
  ...eventHandlers,
  ...transferHandlers,
  ...clusterConfigHandlers,
  ...maintenanceHandlers,
  ...changeHandlers,
};
