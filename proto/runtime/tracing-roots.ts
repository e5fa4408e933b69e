// Roots drawn by the layer that makes them. The tier's call layer (server/grpc/call-trace.ts)
// starts a root span for every call that brings no trace context — nearly all of a busy
// replica's calls — and at 1 % sampling 99 of 100 such spans are made only to be dropped:
// ids drawn, the sampler asked, a span object, a context. Under a parent-based sampler a
// root's fate is its own draw and its children follow it, so the layer may draw first,
// at the same ratio, and ask the SDK only for the roots it keeps; a root it drops costs a
// random number.
//
// A root the layer keeps is started under ROOT_SAMPLED (a context key, no span), and the
// sampler registered by ./tracing-sdk.ts samples such a root whatever its own ratio, so the
// share of roots kept is the draw's alone. The key means nothing to any other sampler: a
// process that registers an SDK of its own is not told to draw (rootDraw answers undefined
// for the settings it was not given).
import { createContextKey } from '@opentelemetry/api';
import type { TracingSettings } from './tracing-env.js';

/** In a root's parent context: its maker drew it and keeps it (./tracing-sdk.ts samples it). */
export const ROOT_SAMPLED = createContextKey('sfdb.root-sampled');

/** One root's draw: true keeps it (started under ROOT_SAMPLED), false drops it (no span at all). */
export type RootDraw = () => boolean;

const KEEP_ALL: RootDraw = () => true;
const DROP_ALL: RootDraw = () => false;

/**
 * The draw of a root under the sampler `settings` registers, when a root's maker may draw
 * it (a parent-based sampler: a child follows its parent, never its own draw): it keeps a
 * root at the sampler's ratio. Undefined when it may not: no tracing, or a sampler that
 * decides a child by its trace id too (traceidratio), so a root must keep the id that
 * decision reads.
 */
export function rootDraw(settings: TracingSettings | undefined): RootDraw | undefined {
  switch (settings?.sampler) {
    case 'parentbased_always_on':
      return KEEP_ALL;
    case 'parentbased_always_off':
      return DROP_ALL;
    case 'parentbased_traceidratio': {
      const { ratio } = settings;
      return ratio >= 1 ? KEEP_ALL : ratio <= 0 ? DROP_ALL : () => Math.random() < ratio;
    }
    default:
      return undefined;
  }
}
