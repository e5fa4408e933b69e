// TODO(foundation): implement.
import type { Handlers } from '../context.js';

const todo = (): Promise<never> => Promise.reject(new Error('not implemented'));

export const eventHandlers: Handlers<'RecordEvents' | 'ListObjectEvents' | 'PruneEvents'> = {
  RecordEvents: todo,
  ListObjectEvents: todo,
  PruneEvents: todo,
};
