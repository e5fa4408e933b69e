// TODO(foundation): implement.
import type { Handlers } from '../context.js';

const todo = (): Promise<never> => Promise.reject(new Error('not implemented'));

export const queueHandlers: Handlers<'Enqueue' | 'Dequeue' | 'RenewClaim' | 'Resolve' | 'Release' | 'GetQueueLength' | 'ListStuckClaims'> = {
  Enqueue: todo,
  Dequeue: todo,
  RenewClaim: todo,
  Resolve: todo,
  Release: todo,
  GetQueueLength: todo,
  ListStuckClaims: todo,
};
