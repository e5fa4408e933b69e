// TODO(foundation): typed calls of this family.
import type { Transport } from '../transport.js';

export function queueApi(_t: Transport) {
  return {};
}
