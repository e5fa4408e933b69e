// How the typed API reads through the static-object cache and evicts after its own writes.
import type { CachedType, StaticObjectCache } from './cache.js';
import { deepFreeze } from './cache.js';

/** A typed Get of a cached type: through `cache` when there is one. Either way the answer is deep-frozen. */
export async function readThrough<T extends object>(
  cache: StaticObjectCache | undefined,
  type: CachedType,
  uuid: string,
  load: () => Promise<T | undefined>,
  cacheable: (value: T) => boolean = () => true,
): Promise<Readonly<T> | undefined> {
  if (cache) return cache.read(type, uuid, load, cacheable);
  const value = await load();
  return value === undefined ? undefined : deepFreeze(value);
}

/**
 * This process's update or delete of (type, uuid): runs `write`, then evicts the entry —
 * also when `write` failed, since a failed write may still have been applied.
 * `changeSeqOf`: an update's answer → the seq of the change it published on
 * `static/<type>` ('0': not said), so that copies read after it skip that change.
 */
export async function evictAfter<T>(
  cache: StaticObjectCache | undefined,
  type: CachedType,
  uuid: string,
  write: () => Promise<T>,
  changeSeqOf?: (answer: T) => string | undefined,
): Promise<T> {
  let answer: T;
  try {
    answer = await write();
  } catch (err) {
    cache?.evict(type, uuid, 'write');
    throw err;
  }
  cache?.evict(type, uuid, 'write', changeSeqOf?.(answer));
  return answer;
}
