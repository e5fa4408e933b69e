// The YAML the Prometheus rules and their promtool tests are written in (rules.ts,
// rules-test.ts): block style, written here rather than by a library, every string quoted
// the JSON way (a valid YAML double-quoted scalar), so the output is byte-stable.

export type Yaml = string | number | boolean | readonly Yaml[] | { readonly [key: string]: Yaml };

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function scalar(value: string | number | boolean): string {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`cannot write ${value} as a YAML number`);
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** Multi-line text (PromQL) reads best as a literal block; only when nothing in it could change meaning there. */
function isBlockSafe(text: string): boolean {
  return text.includes('\n') && !/^\s/.test(text) && !/[ \t]$/m.test(text) && !/\n$/.test(text) && !/[^\n\x20-\x7e]/.test(text);
}

/** A value that fits on its key's line: a scalar, or an empty collection. */
function inline(value: Yaml): string | undefined {
  if (typeof value !== 'object') return scalar(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : undefined;
  return Object.keys(value).length === 0 ? '{}' : undefined;
}

function entry(key: string, value: Yaml, pad: string): string {
  const k = PLAIN_KEY.test(key) ? key : JSON.stringify(key);
  if (typeof value === 'string' && isBlockSafe(value)) {
    const lines = value.split('\n').map((line) => (line === '' ? '' : `${pad}  ${line}`));
    return `${pad}${k}: |-\n${lines.join('\n')}`;
  }
  const flat = inline(value);
  return flat !== undefined ? `${pad}${k}: ${flat}` : `${pad}${k}:\n${toYaml(value, `${pad}  `)}`;
}

/** A block-style YAML document (no trailing newline); objects keep their key order. */
export function toYaml(value: Yaml, pad = ''): string {
  const flat = inline(value);
  if (flat !== undefined) return `${pad}${flat}`;
  if (Array.isArray(value)) {
    const items = value as readonly Yaml[];
    // An item is written one level deeper, then its first indent becomes the dash.
    return items.map((item) => `${pad}- ${toYaml(item, `${pad}  `).slice(pad.length + 2)}`).join('\n');
  }
  return Object.entries(value as { readonly [key: string]: Yaml })
    .map(([key, v]) => entry(key, v, pad))
    .join('\n');
}
