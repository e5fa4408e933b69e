// TODO(foundation): typed calls of this family.
import type { Transport } from '../transport.js';

export function ipamApi(_t: Transport) {
  return {};
}
