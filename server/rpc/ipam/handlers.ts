// TODO(foundation): implement.
import type { Handlers } from '../context.js';

const todo = (): Promise<never> => Promise.reject(new Error('not implemented'));

export const ipamHandlers: Handlers<'ReserveAddress' | 'ReleaseAddress' | 'ListReservations' | 'GetAddressesInUse'> = {
  ReserveAddress: todo,
  ReleaseAddress: todo,
  ListReservations: todo,
  GetAddressesInUse: todo,
};
