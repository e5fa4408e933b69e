// docs/daemons.md's worked example is the code test/integration/imager-example.test.ts runs:
// each code block of "A worked example" but the test sketch is a piece of examples/imager.ts,
// as written there.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('docs/daemons.md, "A worked example"', () => {
  it('shows examples/imager.ts as it is: its imports, its class and its main', () => {
    const doc = readFileSync('docs/daemons.md', 'utf8');
    const start = doc.indexOf('### A worked example');
    const section = doc.slice(start, doc.indexOf('\n### ', start + 1));
    const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    const example = readFileSync('examples/imager.ts', 'utf8');
    const shown = blocks.filter((b) => !b.includes('startTestTier'));
    expect(shown.map((b) => b.split('\n')[0])).toEqual([
      "import { createHash, randomUUID } from 'node:crypto';",
      "export const BUILD_QUEUE = 'build-image';",
      '/** Its own main: settings parsed once, one client whose caller identity is the daemon. */',
    ]);
    for (const block of shown) expect(example, block.split('\n')[0]).toContain(block);
    // Together they are the whole file but its header comment.
    expect(shown.join('\n').length).toBeGreaterThan(example.length - example.indexOf('import { createHash') - 10);
  });
});
