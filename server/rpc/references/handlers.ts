// TODO(foundation): implement.
import type { Handlers } from '../context.js';

const todo = (): Promise<never> => Promise.reject(new Error('not implemented'));

export const referenceHandlers: Handlers<'RecordReference' | 'RemoveReference' | 'GetReferencesFrom' | 'GetReferencesTo'> = {
  RecordReference: todo,
  RemoveReference: todo,
  GetReferencesFrom: todo,
  GetReferencesTo: todo,
};
