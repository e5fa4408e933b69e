// TODO(foundation): typed calls of this family.
import type { Transport } from '../transport.js';

export function clusterConfigApi(_t: Transport) {
  return {};
}
