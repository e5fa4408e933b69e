// "Why did this daemon wake?": a WaitForChanges answered with changes links its span to the
// span of each sampled call that wrote them on this replica, so the wake-up and its cause
// are one click apart. The writer's span context is kept with its change rows in the
// replica's window, in memory (window.ts WindowEntry.writer), never in the database: a
// change this replica read from MariaDB — another replica's write, or its own when the
// tail read the row before the writer's COMMIT reached the window — links to nothing.
import { TraceFlags, trace } from '@opentelemetry/api';
import type { Context, Link, SpanContext } from '@opentelemetry/api';
import type { WindowEntry } from './window.js';

/** Links one answer adds at most: a wake-up by a burst of writes names its first writers. */
export const MAX_WRITER_LINKS = 32;

/** The span of `writer` when it is sampled (a link to a span never exported leads nowhere). */
export function sampledWriter(writer: Context): SpanContext | undefined {
  const ids = trace.getSpanContext(writer);
  return ids === undefined || (ids.traceFlags & TraceFlags.SAMPLED) === 0 ? undefined : ids;
}

/** Links the span of `call` (a WaitForChanges's trace context) to each distinct writer of `changes`, at most MAX_WRITER_LINKS. */
export function linkWriters(call: Context, changes: readonly WindowEntry[]): void {
  const span = trace.getSpan(call);
  if (span === undefined || !span.isRecording()) return;
  let links: Link[] | undefined;
  const seen = new Set<string>();
  for (const { writer } of changes) {
    if (writer === undefined || seen.has(writer.spanId)) continue;
    seen.add(writer.spanId);
    (links ??= []).push({ context: writer });
    if (links.length >= MAX_WRITER_LINKS) break;
  }
  if (links !== undefined) span.addLinks(links);
}
