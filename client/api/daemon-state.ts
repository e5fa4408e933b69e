// Node daemon states: always read through, never cached.
import type { DaemonState__Output } from '@sfdb/proto/gen/sfdb/v1/DaemonState';
import type { NodeDaemonState__Output } from '@sfdb/proto/gen/sfdb/v1/NodeDaemonState';
import type { OperatorHold } from '@sfdb/proto/gen/sfdb/v1/OperatorHold';
import { Fenced } from '../errors.js';
import type { CallOptions, Transport } from '../transport.js';

export type DaemonState = Exclude<DaemonState__Output, 'DAEMON_STATE_UNSPECIFIED'>;
export type NodeDaemonState = NodeDaemonState__Output;

/**
 * A daemon state as a write left it, and `changeSeq`: the seq of the change the write
 * published on the daemon's state topic ('0' when none, or from a tier that does not say).
 */
export type WrittenDaemonState = NodeDaemonState & { changeSeq: string };

export interface DaemonStateWriteOptions extends CallOptions {
  /**
   * An operator's stop ('set', with STOPPING or STOPPED) or start ('release'); left out,
   * the hold stays as it is. A daemon never sets it: its own writes leave it alone.
   */
  operatorHold?: 'set' | 'release';
}

const HOLD: Record<'set' | 'release', OperatorHold> = { set: 'OPERATOR_HOLD_SET', release: 'OPERATOR_HOLD_RELEASE' };

/**
 * True for the answer of a SetNodeDaemonState that the daemon's operator hold refused (a
 * RUNNING or IDLE while an operator stop holds it): FAILED_PRECONDITION, nothing written.
 */
export function heldByOperator(err: unknown): err is Fenced {
  return err instanceof Fenced && err.operation === 'SetNodeDaemonState';
}

export function daemonStateApi(t: Transport) {
  return {
    /** Records a daemon's state. While an operator holds it stopped, RUNNING and IDLE are refused (see heldByOperator). */
    async setNodeDaemonState(
      nodeUuid: string,
      daemon: string,
      state: DaemonState,
      message = '',
      opts?: DaemonStateWriteOptions,
    ): Promise<WrittenDaemonState> {
      const { operatorHold, ...callOpts } = opts ?? {};
      const hold = operatorHold === undefined ? {} : { operatorHold: HOLD[operatorHold] };
      const r = await t.call('SetNodeDaemonState', { nodeUuid, daemon, state, message, ...hold }, callOpts);
      return { ...(r.daemonState as NodeDaemonState), changeSeq: r.changeSeq };
    },

    async getNodeDaemonState(nodeUuid: string, daemon: string, opts?: CallOptions): Promise<NodeDaemonState | undefined> {
      const r = await t.call('GetNodeDaemonState', { nodeUuid, daemon }, opts);
      return r.found && r.daemonState ? r.daemonState : undefined;
    },

    async listNodeDaemonStates(nodeUuid: string, opts?: CallOptions): Promise<NodeDaemonState[]> {
      return (await t.call('ListNodeDaemonStates', { nodeUuid }, opts)).daemonStates;
    },
  };
}

export type DaemonStateApi = ReturnType<typeof daemonStateApi>;
