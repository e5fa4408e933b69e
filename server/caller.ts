// Who makes a call, as its metadata names it: read by the interceptors, checked against a
// TLS identity (server/grpc/tls.ts), handed to handlers (server/rpc/context.ts).

export interface Caller {
  /** x-sfdb-caller-daemon as sent (may be off the metrics allow-list), or ''. */
  readonly daemon: string;
  /** x-sfdb-caller-node as sent, or ''. */
  readonly node: string;
}
