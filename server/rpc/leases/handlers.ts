// TODO(foundation): implement.
import type { Handlers } from '../context.js';

const todo = (): Promise<never> => Promise.reject(new Error('not implemented'));

export const leaseHandlers: Handlers<'AcquireLease' | 'RenewLease' | 'ReleaseLease' | 'GetLease' | 'ListLeases'> = {
  AcquireLease: todo,
  RenewLease: todo,
  ReleaseLease: todo,
  GetLease: todo,
  ListLeases: todo,
};
