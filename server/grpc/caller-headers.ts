// The caller headers a call may carry, and what makes one no valid claim. grpc-js drops a
// header value outside printable ASCII without a word, so a caller node sent as UTF-8
// would reach the tier as no claim at all (served, counted unclaimed); the grpc-js
// boundary remembers which keys it dropped (grpc-js/request-metadata.ts). A caller header
// that was dropped, sent as a -bin key, sent twice, or is no uuid / daemon name is refused
// as INVALID_ARGUMENT naming the header: step 2 of admission (admission.ts).
import type { Metadata } from '@grpc/grpc-js';
import { CALLER_DAEMON_HEADER, CALLER_DAEMON_RULE, CALLER_NODE_HEADER, isCallerDaemon, isCallerNode } from '@sfdb/proto/metadata';
import { InvalidArgumentError } from '../errors.js';
import { droppedKeys } from './grpc-js/request-metadata.js';

const CALLER_HEADERS = [
  { key: CALLER_NODE_HEADER, bin: `${CALLER_NODE_HEADER}-bin`, valid: isCallerNode, rule: 'not a lower-case uuid' },
  { key: CALLER_DAEMON_HEADER, bin: `${CALLER_DAEMON_HEADER}-bin`, valid: isCallerDaemon, rule: CALLER_DAEMON_RULE },
] as const;

/** The refusal of a caller header that is not a valid claim, naming the header; undefined when they are absent or valid. */
export function callerHeaderFault(metadata: Metadata): InvalidArgumentError | undefined {
  const unreadable = droppedKeys(metadata);
  for (const { key, bin, valid, rule } of CALLER_HEADERS) {
    if (unreadable.includes(key)) return new InvalidArgumentError(key, 'not printable ASCII');
    if (metadata.get(bin).length > 0) return new InvalidArgumentError(bin, `${key} is text, not a binary header`);
    const values = metadata.get(key);
    if (values.length === 0) continue;
    if (values.length > 1) return new InvalidArgumentError(key, 'sent more than once');
    const value = values[0];
    if (typeof value !== 'string' || !valid(value)) return new InvalidArgumentError(key, rule);
  }
  return undefined;
}
