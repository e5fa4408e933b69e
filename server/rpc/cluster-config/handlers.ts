// TODO(foundation): implement.
import type { Handlers } from '../context.js';

const todo = (): Promise<never> => Promise.reject(new Error('not implemented'));

export const clusterConfigHandlers: Handlers<'GetClusterConfig' | 'SetClusterConfig'> = {
  GetClusterConfig: todo,
  SetClusterConfig: todo,
};
