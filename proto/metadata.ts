// gRPC metadata keys of the contract, for the tier and its clients alike. Those of a
// refusal's trailers are the error table's (errors.ts).

/** The calling daemon's name (the caller_daemon label when on the tier's allow-list). */
export const CALLER_DAEMON_HEADER = 'x-sfdb-caller-daemon';
/** The calling node's uuid. */
export const CALLER_NODE_HEADER = 'x-sfdb-caller-node';

const CALLER_NODE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CALLER_DAEMON = /^[a-z0-9][a-z0-9_.:-]{0,63}$/;

/** A caller-node claim: a node's lower-case uuid. */
export function isCallerNode(value: string): boolean {
  return CALLER_NODE.test(value);
}

/** A caller-daemon name: 1-64 of a-z 0-9 _ . : -, starting with a letter or digit (the names rule). */
export function isCallerDaemon(value: string): boolean {
  return CALLER_DAEMON.test(value);
}

/** Why a caller-daemon value is refused, for INVALID_ARGUMENT and client errors. */
export const CALLER_DAEMON_RULE = 'must be 1-64 of lower-case letters, digits, _ . : -, starting with a letter or digit';
