// A run's temporary directory (server/testing/temp-dir.ts) with the harness's reaping:
// the children a killed run of the same prefix left are killed with its MariaDB
// (leftovers.ts).
import { TempDir as RunDir } from '../server/testing/temp-dir.js';
import { killChildrenOf } from './leftovers.js';

export class TempDir extends RunDir {
  constructor(prefix: string, say: (message: string) => void = () => {}) {
    super(prefix, { say, onDeadRun: killChildrenOf });
  }
}
