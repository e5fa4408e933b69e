// TODO(foundation): typed calls of this family.
import type { Transport } from '../transport.js';

export function objectsApi(_t: Transport) {
  return {};
}
