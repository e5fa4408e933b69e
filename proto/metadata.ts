// gRPC metadata keys of the contract, for the tier and its clients alike.

/** The calling daemon's name (the caller_daemon label when on the tier's allow-list). */
export const CALLER_DAEMON_HEADER = 'x-sfdb-caller-daemon';
/** The calling node's uuid. */
export const CALLER_NODE_HEADER = 'x-sfdb-caller-node';
/** On RESOURCE_EXHAUSTED: how long to wait before retrying (ms). */
export const RETRY_PUSHBACK_HEADER = 'grpc-retry-pushback-ms';
