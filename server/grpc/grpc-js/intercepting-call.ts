// How the tier's call layer (../interceptors.ts) sits in grpc-js's chain of server calls,
// where grpc-js's code goes past what its typings promise.
//
// An interceptor is typed as returning grpc-js's ServerInterceptingCall class; grpc-js
// (1.14, server-interceptors.js getServerInterceptingCall, server.js) only calls the
// methods of ServerInterceptingCallInterface on it. The tier's layer is one object per
// call that implements that interface and is, at once, the listener of the call below
// (start(this)): an intercepting listener, whose methods take the event alone and pass
// it on themselves. grpc-js tells such a listener from one built with its
// ServerListenerBuilder (whose methods take the event and a `next` callback) by the
// arity of onReceiveMetadata: one argument (isInterceptingServerListener). Its 1.14
// server no longer consults that rule (its base call calls start()'s listener directly),
// but a grpc-js that did, with another rule, would treat the layer as a builder listener
// and wait for a `next` it never calls: calls would hang, unadmitted and uncounted.
//
// interceptingCall() checks the layer against grpc-js's own rule when the interceptor is
// made, so a grpc-js without it, or a layer that no longer fits it, stops the server at
// start. test/integration/grpc-js-boundary.test.ts runs calls through the real server
// with the layer alone and between two of grpc-js's own layers, and checks what the
// layer does (admits, refuses, counts): that fails if interception stops working.
import type * as grpc from '@grpc/grpc-js';
import { isInterceptingServerListener } from '@grpc/grpc-js/build/src/server-interceptors.js';

/** The listener a call's layer gets from the layer above (grpc-js exports no name for it). */
export type CallListener = Parameters<grpc.ServerInterceptingCallInterface['start']>[0];
/** What sendStatus takes. */
export type PartialStatus = Parameters<grpc.ServerInterceptingCallInterface['sendStatus']>[0];

/** A layer that is both the call above's call and the call below's listener. */
export type CallLayer = grpc.ServerInterceptingCallInterface & CallListener;

/**
 * Throws unless grpc-js takes instances of `layer` (a class implementing CallLayer) as
 * intercepting listeners. Call once, when the interceptor is made.
 */
export function checkCallLayer(layer: { prototype: CallLayer }): void {
  if (typeof isInterceptingServerListener !== 'function' || !isInterceptingServerListener(layer.prototype as never)) {
    throw new Error("@grpc/grpc-js no longer takes the tier's call layer as an intercepting listener: server/grpc/grpc-js/intercepting-call.ts needs updating");
  }
}

/** The layer, as grpc-js's typings ask an interceptor to return it (grpc-js calls only the interface's methods). */
export function interceptingCall(layer: CallLayer): grpc.ServerInterceptingCall {
  return layer as unknown as grpc.ServerInterceptingCall;
}
