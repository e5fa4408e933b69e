// `npm run bench:cache-footprint`: what one static-object cache holds on the heap, empty and
// with a daemon's worth of objects. A daemon process has one cache, the cluster bench's
// simulator of 7,000 processes has 7,000: when the cache allocated its capacity up front
// (~0.6 MB each), the 1,000-node bench:cluster's simulator ran out of heap before its
// daemons were ready.
import { parseArgs } from 'node:util';
import { StaticObjectCache } from '../../client/index.js';
import { DEFAULT_CACHE_SETTINGS } from '../../client/config.js';

const { values } = parseArgs({ options: { caches: { type: 'string', default: '1000' }, objects: { type: 'string', default: '20' } } });
const caches = Number(values.caches);
const objects = Number(values.objects);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench:cache-footprint does)');

/** Heap bytes per item that `make` keeps, over `caches` items. */
function perItem(make: (i: number) => unknown): number {
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const kept: unknown[] = [];
  for (let i = 0; i < caches; i++) kept.push(make(i));
  gc?.();
  const bytes = (process.memoryUsage().heapUsed - before) / caches;
  kept.length = 0;
  return bytes;
}

const fill = (c: StaticObjectCache, i: number): StaticObjectCache => {
  for (let j = 0; j < objects; j++) c.set('NODE', `00000000-0000-4000-8000-${String(i * objects + j).padStart(12, '0')}`, { uuid: String(j), fqdn: `n${j}.example` });
  return c;
};
const kib = (b: number): string => `${(b / 1024).toFixed(1)} KiB`;
console.log(`${caches} caches of capacity ${DEFAULT_CACHE_SETTINGS.capacity} (Node ${process.version})`);
console.log(`| | heap per cache |`);
console.log(`| --- | ---: |`);
console.log(`| StaticObjectCache, empty | ${kib(perItem(() => new StaticObjectCache()))} |`);
console.log(`| StaticObjectCache, ${objects} objects | ${kib(perItem((i) => fill(new StaticObjectCache(), i)))} |`);
