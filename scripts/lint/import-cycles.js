// An ESLint rule of this repository: no import cycles, type-only imports included.
//
// import-x/no-cycle passes over every `import type` (it has no option to count them), so a
// circle closed by a type import goes unseen — yet it is a circle of the design all the
// same: neither side can be read, moved or split without the other. This rule follows
// every import of a project file: value and type imports, `export … from`, `import()` (in
// code and in type positions) and `import x = require()`. It reports each import of the
// linted file whose target leads back to it, with the files of the circle.
//
// The linted file's imports come from its AST; the rest of the graph from the files on
// disk, scanned with TypeScript's import pre-processor (comments and strings are not
// imports) and kept while their modification time stays the same.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Absolute path → { mtimeMs, imports }: the project files that file imports. */
const scanned = new Map();

function isFile(file) {
  return statSync(file, { throwIfNoEntry: false })?.isFile() === true;
}

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The workspace packages' names → their sources, from tsconfig.json's paths (what tsc and
 * tsx resolve @sfdb/* to): [prefix, suffix of the key around its '*', target template].
 */
const WORKSPACE_PATHS = Object.entries(JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions.paths ?? {}).map(([key, [target]]) => {
  const [prefix, suffix = ''] = key.split('*');
  return { prefix, suffix, wildcard: key.includes('*'), target: path.join(ROOT, target) };
});

/** The source file a workspace package specifier (`@sfdb/proto/topics`) names, or undefined. */
function resolveWorkspace(specifier) {
  for (const { prefix, suffix, wildcard, target } of WORKSPACE_PATHS) {
    if (!wildcard && specifier === prefix) return target;
    if (wildcard && specifier.startsWith(prefix) && specifier.endsWith(suffix) && specifier.length > prefix.length + suffix.length) {
      return target.replace('*', specifier.slice(prefix.length, specifier.length - suffix.length));
    }
  }
  return undefined;
}

/**
 * The project file a specifier names — relative (`./x.js` is `./x.ts` in the sources) or a
 * workspace package's (@sfdb/*) — or undefined (another package, a builtin).
 */
export function resolveImport(fromFile, specifier) {
  if (specifier.startsWith('@sfdb/')) {
    const source = resolveWorkspace(specifier);
    return source !== undefined && isFile(source) ? source : undefined;
  }
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined; // a package or a builtin
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = /\.js$/.test(base)
    ? [base.slice(0, -3) + '.ts', base]
    : /\.mjs$/.test(base)
      ? [base.slice(0, -4) + '.mts', base]
      : [base, `${base}.ts`, path.join(base, 'index.ts')];
  const found = candidates.find(isFile);
  return found === undefined || found.split(path.sep).includes('node_modules') ? undefined : found;
}

/** The project files `file` imports, as it is on disk. */
export function importsOf(file) {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return [];
  const known = scanned.get(file);
  if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.imports;
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const imports = [...new Set(info.importedFiles.map((f) => resolveImport(file, f.fileName)).filter((f) => f !== undefined))];
  scanned.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, imports });
  return imports;
}

/**
 * The files from `start` back to `target` along imports ([start, …, target]), or undefined
 * when none leads there. `cleared`: files already known not to lead there (filled in).
 */
function pathBack(start, target, cleared) {
  const parent = new Map([[start, undefined]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i];
    for (const next of importsOf(file)) {
      if (next === target) {
        const route = [target];
        for (let at = file; at !== undefined; at = parent.get(at)) route.unshift(at);
        return route;
      }
      if (parent.has(next) || cleared.has(next)) continue;
      parent.set(next, file);
      queue.push(next);
    }
  }
  for (const file of queue) cleared.add(file);
  return undefined;
}

/** The module specifier an import-like node names, or undefined. */
function specifierOf(node) {
  switch (node.type) {
    case 'ImportDeclaration':
    case 'ExportAllDeclaration':
    case 'ExportNamedDeclaration':
    case 'ImportExpression':
    case 'TSImportType': // `import('./x.js').T`
      return typeof node.source?.value === 'string' ? node.source.value : undefined;
    case 'TSImportEqualsDeclaration':
      return node.moduleReference?.type === 'TSExternalModuleReference' && typeof node.moduleReference.expression?.value === 'string'
        ? node.moduleReference.expression.value
        : undefined;
    default:
      return undefined;
  }
}

const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, type-only imports included' },
    schema: [],
    messages: {
      cycle: 'Import cycle (type-only imports count): {{route}}. Move what both sides need into a file both import.',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!path.isAbsolute(file)) return {}; // text without a file
    const root = context.cwd;
    const cleared = new Set();
    const check = (node) => {
      const specifier = specifierOf(node);
      if (specifier === undefined) return;
      const target = resolveImport(file, specifier);
      if (target === undefined || target === file) return;
      const route = pathBack(target, file, cleared);
      if (route === undefined) return;
      const names = [file, ...route].map((f) => path.relative(root, f));
      context.report({ node: node.source ?? node, messageId: 'cycle', data: { route: names.join(' → ') } });
    };
    return {
      ImportDeclaration: check,
      ExportAllDeclaration: check,
      ExportNamedDeclaration: check,
      ImportExpression: check,
      TSImportType: check,
      TSImportEqualsDeclaration: check,
    };
  },
};

/** The plugin: `sfdb/no-import-cycle`. */
export default { meta: { name: 'sfdb' }, rules: { 'no-import-cycle': noImportCycle } };
