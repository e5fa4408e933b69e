// The IPC of the benchmarks' forked children (harness/children.ts starts them): the
// first message of one, and all of them in order.
import type { ChildProcess } from 'node:child_process';

/** The first IPC message of `child`; rejects if it exits (or `timeoutMs` passes) first. */
export function firstMessage<T>(child: ChildProcess, what: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: unknown): void => finish(undefined, message as T);
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      finish(new Error(`${what} exited (${signal ?? `code ${code}`}) before answering`));
    function finish(err: Error | undefined, message?: T): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(message as T);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Every IPC message of a child, in order, awaited one at a time. */
export class Messages<T> {
  private readonly queue: T[] = [];
  private waiter: (() => void) | undefined;
  private exit: string | undefined;

  constructor(private readonly child: ChildProcess) {
    child.on('message', (message) => {
      this.queue.push(message as T);
      this.waiter?.();
    });
    child.once('exit', (code, signal) => {
      this.exit = signal ?? `code ${code}`;
      this.waiter?.();
    });
  }

  /** The next message; rejects if the child exits (or `timeoutMs` passes) first. */
  async next(what: string, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const message = this.queue.shift();
      if (message !== undefined) return message;
      if (this.exit !== undefined) throw new Error(`${what}: exited (${this.exit}) before answering`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${what}: no answer within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = undefined;
    }
  }
}
