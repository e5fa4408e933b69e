// The process's tracing as a lifecycle component, for the tier (server/main.ts) and
// sf-daemon (daemons/main.ts): it registers the trace SDK when the variables ask for it
// (./tracing-env.ts) and flushes it when the process stops — last, as it was started first.
//
// It lives in proto/ because both processes need the same SDK set-up and may not import
// each other (docs/architecture.md). The SDK is loaded by a dynamic import of
// ./tracing-sdk.ts, only when an exporter is asked for: with tracing off nothing of it is
// loaded, and the client (which imports none of this) never depends on it
// (proto/package.json names the SDK as optional peers; the tier's and sf-daemon's packages
// depend on it).
import type { Component } from './lifecycle.js';
import type { TracingSettings } from './tracing-env.js';
import type { TracingOptions } from './tracing-sdk.js';

/**
 * The process's tracing as a lifecycle component: add it first, so it is stopped last and
 * its flush carries the spans of everything stopped before it. With `settings` undefined
 * it does nothing at all.
 */
export function tracingComponent(settings: TracingSettings | undefined, options: TracingOptions): Component {
  let stop: (() => Promise<void>) | undefined;
  return {
    name: 'tracing',
    async start() {
      if (settings === undefined) return;
      const { registerTracing } = await import('./tracing-sdk.js');
      stop = registerTracing(settings, options);
    },
    stop: () => stop?.(),
  };
}
