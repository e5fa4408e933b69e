// A run's temporary directory as a part of its lifecycle: made when started (under the
// system's temporary directory, after reaping what killed runs of the same prefix left,
// leftovers.ts), marked as ours, removed with everything in it when stopped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Component } from '../proto/runtime/lifecycle.js';
import { reapDeadRuns, recordOwner } from './leftovers.js';

export class TempDir implements Component {
  readonly name = 'temporary directory';
  private dir: string | undefined;

  constructor(
    private readonly prefix: string,
    private readonly say: (message: string) => void = () => {},
  ) {}

  /** Its path; known once started. */
  get path(): string {
    if (this.dir === undefined) throw new Error(`the temporary directory ${this.prefix}… is not made yet`);
    return this.dir;
  }

  async start(): Promise<void> {
    await reapDeadRuns(this.prefix, this.say);
    this.dir = mkdtempSync(join(tmpdir(), this.prefix));
    recordOwner(this.dir);
  }

  stop(): void {
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
  }
}
