// The operator guide — docs/operations.md and the pages its index links to, read as one text —
// must name every SFDB_* setting the code reads (and no setting the code does not read), every
// alert of the generated Prometheus rules (each alert's runbook link pointing at its section),
// every metric of the three catalogues and every flag of sf-database, on whichever page. The
// settings are found by reading the source: every SFDB_ name in a string the code builds, with
// names assembled from a prefix (`'SFDB_CACHE_' + key`, `` `SFDB_${k}` ``) resolved to their
// concrete values.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DAEMON_METRICS } from '../../daemons/metrics.js';
import { SETTING_ENV } from '../../daemons/settings.js';
import { CLIENT_METRICS } from '../../client/metrics.js';
import { SETTINGS } from '../../server/settings.js';
import { SERVER_METRICS } from '../../server/metric-catalog.js';

/** The guide's entry page, and its pages in the order its index lists them. */
const ENTRY = 'docs/operations.md';
const PAGES = ['deploying.md', 'backup.md', 'settings.md', 'balancing.md', 'metrics.md', 'alerts.md', 'tracing.md'];
const GUIDE = [ENTRY, ...PAGES.map((page) => `docs/${page}`)];
const RULES = 'ops/prometheus/sf-database-rules.yaml';
const SOURCE_ROOTS = ['server', 'client', 'daemons', 'ops', 'proto'];
const NAME = /SFDB_[A-Z0-9_]+/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'node_modules' ? [] : sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

interface Scan {
  /** Concrete SFDB_ names. */
  names: Set<string>;
  /** `file:line: text` of names built from a prefix the scanner could not resolve. */
  unresolved: string[];
}

const unwrap = (e: ts.Expression): ts.Expression =>
  ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) ? unwrap(e.expression) : e;

const cross = (a: string[], b: string[]): string[] => a.flatMap((x) => b.map((y) => x + y));

/** Every string `expr` can be, or undefined when that is not known from this file. */
function resolve(expr: ts.Expression, file: ts.SourceFile, depth = 0): string[] | undefined {
  if (depth > 8) return undefined;
  const e = unwrap(expr);
  const again = (x: ts.Expression): string[] | undefined => resolve(x, file, depth + 1);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e.text];
  if (ts.isTemplateExpression(e)) {
    let out: string[] | undefined = [e.head.text];
    for (const span of e.templateSpans) {
      const part = again(span.expression);
      out = part && out ? cross(cross(out, part), [span.literal.text]) : undefined;
    }
    return out;
  }
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const [left, right] = [again(e.left), again(e.right)];
    return left && right ? cross(left, right) : undefined;
  }
  if (ts.isConditionalExpression(e)) {
    const [a, b] = [again(e.whenTrue), again(e.whenFalse)];
    return a && b ? [...a, ...b] : undefined;
  }
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.arguments.length === 0) {
    const method = e.expression.name.text;
    const base = again(e.expression.expression);
    if (base && method === 'toUpperCase') return base.map((s) => s.toUpperCase());
    if (base && method === 'toLowerCase') return base.map((s) => s.toLowerCase());
    return undefined;
  }
  if (ts.isIdentifier(e)) return resolveIdentifier(e, file, depth + 1);
  return undefined;
}

/** The strings an array-valued expression holds: an array literal, `Object.keys({...})`, a const. */
function resolveList(expr: ts.Expression, file: ts.SourceFile, depth: number): string[] | undefined {
  const e = unwrap(expr);
  if (ts.isArrayLiteralExpression(e)) {
    const parts = e.elements.map((el) => resolve(el, file, depth + 1));
    return parts.every((p) => p !== undefined) ? (parts as string[][]).flat() : undefined;
  }
  if (ts.isCallExpression(e) && e.getText(file).startsWith('Object.keys(') && e.arguments[0]) {
    const target = unwrap(e.arguments[0]);
    const object = ts.isIdentifier(target) ? constInitializer(target.text, file) : target;
    if (object && ts.isObjectLiteralExpression(unwrap(object))) {
      return (unwrap(object) as ts.ObjectLiteralExpression).properties.map((p) => (p.name ? p.name.getText(file).replace(/^['"]|['"]$/g, '') : ''));
    }
    return undefined;
  }
  if (ts.isIdentifier(e)) {
    const init = constInitializer(e.text, file);
    return init ? resolveList(init, file, depth + 1) : undefined;
  }
  return undefined;
}

function constInitializer(name: string, file: ts.SourceFile): ts.Expression | undefined {
  let found: ts.Expression | undefined;
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === name &&
      node.initializer &&
      ts.isVariableDeclarationList(node.parent) &&
      (node.parent.flags & ts.NodeFlags.Const) !== 0
    ) {
      found ??= node.initializer;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** A loop variable over a known list, a callback parameter of `list.map(...)`, or a const. */
function resolveIdentifier(id: ts.Identifier, file: ts.SourceFile, depth: number): string[] | undefined {
  for (let node: ts.Node = id; node.parent; node = node.parent) {
    const scope = node.parent;
    if (ts.isForOfStatement(scope) && ts.isVariableDeclarationList(scope.initializer)) {
      const decl = scope.initializer.declarations[0];
      if (decl && ts.isIdentifier(decl.name) && decl.name.text === id.text) return resolveList(scope.expression, file, depth);
    }
    if ((ts.isArrowFunction(scope) || ts.isFunctionExpression(scope)) && ts.isCallExpression(scope.parent)) {
      const param = scope.parameters[0];
      const callee = scope.parent.expression;
      if (param && ts.isIdentifier(param.name) && param.name.text === id.text && ts.isPropertyAccessExpression(callee)) {
        return ['map', 'flatMap', 'forEach', 'filter'].includes(callee.name.text) ? resolveList(callee.expression, file, depth) : undefined;
      }
    }
  }
  const init = constInitializer(id.text, file);
  return init ? resolve(init, file, depth) : undefined;
}

const isConcat = (n: ts.Node): boolean => ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken;

/** Not a piece of a larger concatenation or template (parentheses looked through). */
function isOutermost(node: ts.Node): boolean {
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent)) parent = parent.parent;
  return !(isConcat(parent) || ts.isTemplateSpan(parent));
}

/** The SFDB_ names `text` holds; a name ending in `_` is a bare prefix (`SFDB_CACHE_*` in prose) and left out. */
const namesIn = (text: string): string[] => [...text.matchAll(NAME)].map((m) => m[0]).filter((n) => !n.endsWith('_'));

/** Every SFDB_ name in the strings of `text` (TypeScript source). Comments are not code and are not read. */
function scanSource(path: string, text: string): Scan {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const scan: Scan = { names: new Set(), unresolved: [] };
  const where = (n: ts.Node): string => `${path}:${file.getLineAndCharacterOfPosition(n.getStart(file)).line + 1}: ${n.getText(file)}`;
  const visit = (node: ts.Node): void => {
    // A string built by concatenation or a template: resolved as a whole, at its outermost node.
    if ((isConcat(node) || ts.isTemplateExpression(node)) && isOutermost(node)) {
      if (/SFDB_/.test(node.getText(file))) {
        const values = resolve(node as ts.Expression, file);
        if (values) {
          for (const v of values) for (const n of namesIn(v)) scan.names.add(n);
        } else {
          // Unknown pieces: names wholly inside a literal piece still count; a name running
          // into an unknown piece is a prefix whose values we could not find.
          const pieces = literalPieces(node as ts.Expression);
          for (const [i, piece] of pieces.entries()) {
            if (piece === undefined) continue;
            for (const m of piece.matchAll(NAME)) {
              const touchesUnknown = m.index + m[0].length === piece.length && i + 1 < pieces.length && pieces[i + 1] === undefined;
              if (touchesUnknown) scan.unresolved.push(where(node));
              else if (!m[0].endsWith('_')) scan.names.add(m[0]);
            }
          }
          // Strings inside the unknown pieces (a call's arguments) are read on their own.
          ts.forEachChild(node, visit);
        }
      }
      return;
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) for (const n of namesIn(node.text)) scan.names.add(n);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return scan;
}

/** A built string as its pieces in order: literal text, or undefined for a non-literal piece. */
function literalPieces(expr: ts.Expression): (string | undefined)[] {
  const e = unwrap(expr);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e.text];
  if (isConcat(e)) return [...literalPieces((e as ts.BinaryExpression).left), ...literalPieces((e as ts.BinaryExpression).right)];
  if (ts.isTemplateExpression(e)) {
    return [e.head.text, ...e.templateSpans.flatMap((s) => [...literalPieces(s.expression), s.literal.text])];
  }
  return [undefined];
}

function scanCode(): Scan {
  const total: Scan = { names: new Set(), unresolved: [] };
  for (const root of SOURCE_ROOTS) {
    for (const path of sourceFiles(root)) {
      const scan = scanSource(path, readFileSync(path, 'utf8'));
      for (const n of scan.names) total.names.add(n);
      total.unresolved.push(...scan.unresolved);
    }
  }
  return total;
}

/** The guide's lines, each with whether it is a heading (lines in fenced code never are). */
function markHeadings(guide: string): { line: string; heading: boolean }[] {
  let fenced = false;
  return guide.split('\n').map((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return { line, heading: !fenced && /^#{1,6} /.test(line) };
  });
}

/** The guide's lines between a heading and the next heading of the same or a higher level. */
function section(guide: string, heading: string): string {
  const lines = markHeadings(guide);
  const start = lines.findIndex((l) => l.heading && l.line === heading);
  if (start < 0) throw new Error(`the operator guide has no heading "${heading}"`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((l, i) => i > start && l.heading && l.line.indexOf(' ') <= level);
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .map((l) => l.line)
    .join('\n');
}

/** A heading's anchor, as GitHub makes it: lower case, punctuation dropped, blanks as dashes. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

const headingsOf = (text: string): string[] =>
  markHeadings(text)
    .filter((l) => l.heading)
    .map((l) => l.line.replace(/^#+ /, '').trim());

const tableRows = (text: string): string[] => text.split('\n').filter((l) => l.startsWith('|'));
const inRows = (rows: string[], name: string): boolean => rows.some((r) => r.includes(`\`${name}\``));

describe('the name scanner', () => {
  it('resolves names built from a prefix, ignores bare prefixes and comments, reports what it cannot resolve', () => {
    const source = `
      // SFDB_IN_A_COMMENT is not read
      const TIERS = ['IMMUTABLE', 'UPGRADEABLE'] as const;
      for (const tier of TIERS) read('SFDB_CACHE_' + tier + '_TTL_MS');
      const keys = ['capacity'].map((k) => \`SFDB_CACHE_\${k.toUpperCase()}\`);
      const help = 'the SFDB_CACHE_* settings, and SFDB_TARGETS';
      const fixed = \`\${label} needs SFDB_INSECURE=true\`;
      const unknown = 'SFDB_FROM_' + process.argv[2];`;
    const scan = scanSource('example.ts', source);
    expect([...scan.names].sort()).toEqual([
      'SFDB_CACHE_CAPACITY',
      'SFDB_CACHE_IMMUTABLE_TTL_MS',
      'SFDB_CACHE_UPGRADEABLE_TTL_MS',
      'SFDB_INSECURE',
      'SFDB_TARGETS',
    ]);
    expect(scan.unresolved).toEqual([`example.ts:8: 'SFDB_FROM_' + process.argv[2]`]);
  });
});

describe('the operator guide', () => {
  const pages = new Map(GUIDE.map((path) => [path, readFileSync(path, 'utf8')]));
  // Every page starts with a level-1 heading, so a section never runs into the next page.
  const guide = [...pages.values()].join('\n');
  const code = scanCode();
  const settingsRows = tableRows(section(guide, '## Settings'));

  it(`lists the guide's pages, and only those, in the index of ${ENTRY}`, () => {
    const linked = [...(pages.get(ENTRY) ?? '').matchAll(/^- \[[^\]]+\]\(([a-z-]+\.md)\)/gm)].map((m) => m[1]);
    expect(linked).toEqual(PAGES);
  });

  it('names every SFDB_ setting the code reads, in a settings table', () => {
    expect(code.unresolved, 'SFDB_ names built from a prefix the scanner cannot resolve: make them literal or resolvable').toEqual([]);
    // Sanity: the scan sees all three parts.
    for (const known of ['SFDB_DATABASE_URL', 'SFDB_TARGETS', 'SFDB_QUEUE_WORKERS', 'SFDB_CACHE_CAPACITY']) expect(code.names).toContain(known);
    const missing = [...code.names].filter((n) => !inRows(settingsRows, n)).sort();
    expect(missing, 'settings read by the code but missing from the settings tables').toEqual([]);
  });

  it('puts the tier and daemon settings in their own tables', () => {
    const tier = tableRows(section(guide, '### Tier settings (sf-database)'));
    const daemons = tableRows(section(guide, '### Daemon settings'));
    const client = tableRows(section(guide, '### Client settings'));
    expect(Object.values(SETTINGS).filter((s) => !inRows(tier, s.env)).map((s) => s.env)).toEqual([]);
    expect(Object.values(SETTING_ENV).filter((env) => !inRows(daemons, env))).toEqual([]);
    const tierOrDaemon = new Set([...Object.values(SETTINGS).map((s) => s.env), ...Object.values(SETTING_ENV)]);
    const others = [...code.names].filter((n) => !tierOrDaemon.has(n));
    expect(others.filter((n) => !inRows(client, n))).toEqual([]);
  });

  it('names no SFDB_ setting the code does not read', () => {
    const mentioned = new Set([...guide.matchAll(NAME)].map((m) => m[0]));
    const stale = [...mentioned].filter((n) => (n.endsWith('_') ? ![...code.names].some((c) => c.startsWith(n)) : !code.names.has(n))).sort();
    expect(stale, 'SFDB_ names in the guide that no code reads').toEqual([]);
  });

  it('gives every sf-database flag', () => {
    const flags = [...Object.values(SETTINGS).map((s) => `--${s.flag}`), '--insecure', '--no-migrate'];
    expect(flags.filter((f) => !guide.includes(`\`${f}`))).toEqual([]);
  });

  it('names every metric of the tier, the client and the daemon framework', () => {
    const names = [SERVER_METRICS, CLIENT_METRICS, DAEMON_METRICS].flatMap((catalog) => Object.values(catalog).map((m) => m.name));
    expect(names.filter((n) => !guide.includes(`\`${n}\``))).toEqual([]);
  });

  it(`has a section for every alert of ${RULES}`, () => {
    expect(existsSync(RULES), `${RULES} does not exist: generate it with npm run ops:rules`).toBe(true);
    const alerts = [...readFileSync(RULES, 'utf8').matchAll(/^\s*(?:-\s+)?alert:\s*["']?([A-Za-z0-9_:]+)["']?\s*$/gm)].map((m) => m[1] as string);
    expect(alerts.length, `${RULES} holds no alert`).toBeGreaterThan(0);
    const headings = new Set(headingsOf(guide));
    // The heading is the alert's name, so its anchor is the lower-cased name (the rules' runbook links).
    expect(alerts.filter((a) => !headings.has(a))).toEqual([]);
  });

  it(`points every runbook link of ${RULES} at a heading of the guide`, () => {
    const links = [...readFileSync(RULES, 'utf8').matchAll(/^\s*runbook:\s*["']?([^"'\s]+)["']?\s*$/gm)].map((m) => m[1] as string);
    expect(links.length, `${RULES} holds no runbook link`).toBeGreaterThan(0);
    const broken = links.filter((link) => {
      const [path = '', anchor = ''] = link.split('#');
      const page = pages.get(path);
      return page === undefined || !headingsOf(page).some((h) => anchorOf(h) === anchor);
    });
    expect(broken, 'runbook links to no heading of the guide').toEqual([]);
  });
});
