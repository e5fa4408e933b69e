// Objects: static values per type (static.ts), and the generic, type-keyed state
// (state.ts) and attributes (attributes.ts).
import type { Handlers } from '../context.js';
import { objectAttributeHandlers } from './attributes.js';
import { objectStateHandlers } from './state.js';
import { staticObjectHandlers } from './static.js';
import type { StaticObjectMethod } from './types.js';

type ObjectMethod =
  | StaticObjectMethod
  | 'GetObjectState' | 'SetObjectState' | 'DeleteObjectState' | 'ListObjectsByState'
  | 'GetObjectAttributes' | 'SetObjectAttributes' | 'DeleteObjectAttributes';

export const objectHandlers: Handlers<ObjectMethod> = {
  ...staticObjectHandlers,
  ...objectStateHandlers,
  ...objectAttributeHandlers,
};
