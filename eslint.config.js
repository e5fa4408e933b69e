// Lint: type-aware rules that catch what the compiler does not — above all floating
// promises (grpc-js ignores a returned promise, so an un-awaited one is a lost error)
// and import cycles (proto <- server, proto <- client <- daemons must stay a tree).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import sfdb from './scripts/lint/import-cycles.js';

/** Folders of server/ that a folder of server/ must not import: the tier's layers, bottom up. */
const serverLayers = [
  { target: 'server/db', from: ['server/registry', 'server/changefeed', 'server/rpc', 'server/grpc', 'server/admin'] },
  { target: 'server/registry', from: ['server/changefeed', 'server/rpc', 'server/grpc', 'server/admin'] },
  { target: 'server/changefeed', from: ['server/rpc', 'server/admin'] },
  // The feed's peers dial other replicas with the tier's TLS credentials (grpc/tls.ts).
  { target: 'server/changefeed', from: 'server/grpc', except: ['./tls.ts'] },
  { target: 'server/rpc', from: ['server/grpc', 'server/admin'] },
  { target: 'server/grpc', from: 'server/admin' },
];

/**
 * grpc-js's internals (its build/ tree, past the package's API) are reached in one folder
 * of the tier, and by the tests that check them there (server/grpc/grpc-js/README.md).
 */
const GRPC_JS_BOUNDARY = 'server/grpc/grpc-js';
const GRPC_JS_TESTS = ['test/unit/grpc-internals.test.ts', 'test/unit/grpc-log.test.ts'];
const grpcJsInternals = {
  group: ['@grpc/grpc-js/build', '@grpc/grpc-js/build/*'],
  message: `grpc-js's internals are reached only in ${GRPC_JS_BOUNDARY}/ (see its README.md).`,
};

export default tseslint.config(
  { ignores: ['**/dist/**', 'node_modules/**', 'proto/gen/**', '.data/**', 'coverage/**', 'bench/rpc/scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX, sfdb },
    // Sources import './x.js' for './x.ts' (NodeNext): without the alias no import resolves
    // and every import-x rule that follows imports sees nothing. The workspace packages
    // (@sfdb/*) resolve to their sources through tsconfig.json's paths, as tsc sees them.
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.js'],
          extensionAlias: { '.js': ['.ts', '.js'] },
          tsconfig: { configFile: `${import.meta.dirname}/tsconfig.json` },
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Not import-x/no-cycle: it skips every `import type`, and a circle closed by one is
      // still a circle (scripts/lint/import-cycles.js; test/unit/import-cycles.test.ts).
      'sfdb/no-import-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: 'proto',
              from: ['server', 'client', 'daemons', 'ops', 'bench', 'test', 'harness', 'examples', 'scripts'],
              message: 'proto/ is the contract and its shared helpers: it imports nothing of the sides that use it.',
            },
            ...serverLayers.map((zone) => ({ ...zone, message: 'server/ layers: db < registry < changefeed < rpc < grpc < admin.' })),
          ],
        },
      ],
      'no-restricted-imports': 'off',
    },
  },
  // The architecture, enforced: server and client never import each other; daemons use
  // the client only; ops tools talk to replicas, not to internals; only server/ (and the
  // tests and benches that reach anything) touch mysql2; the harness (harness/: processes,
  // servers and scraping for benches and tests) ships nowhere, so nothing shipped imports
  // it. And the packages stay packable:
  // what is in a package (proto, client, daemons) or uses one (server, ops, examples)
  // reaches another by its name (@sfdb/proto/…, @sfdb/client, @sfdb/daemon), never by a
  // relative path into its folder, which an installed copy does not have. grpc-js's
  // internals are reached in its boundary folder only (the row after server's).
  ...[
    { dir: 'proto', banned: ['server', 'client', 'daemons', 'ops', 'harness'], packages: ['@sfdb/client', '@sfdb/daemon'], mysql: true },
    { dir: 'server', banned: ['client', 'daemons', 'ops', 'proto', 'harness'], packages: ['@sfdb/client', '@sfdb/daemon'], mysql: false },
    { dir: GRPC_JS_BOUNDARY, banned: ['client', 'daemons', 'ops', 'proto', 'harness'], packages: ['@sfdb/client', '@sfdb/daemon'], mysql: false },
    { dir: 'client', banned: ['server', 'daemons', 'ops', 'proto', 'harness'], packages: ['@sfdb/daemon'], mysql: true },
    { dir: 'daemons', banned: ['server', 'ops', 'proto', 'client', 'harness'], packages: [], mysql: true },
    { dir: 'ops', banned: ['server', 'daemons', 'proto', 'client', 'harness'], packages: ['@sfdb/daemon'], mysql: true },
    { dir: 'examples', banned: ['server', 'daemons', 'ops', 'proto', 'client', 'harness'], packages: [], mysql: true },
  ].map(({ dir, banned, packages, mysql }) => ({
    files: [`${dir}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: packages.map((name) => ({ name, message: `${dir}/ does not depend on ${name}.` })),
          patterns: [
            {
              regex: `^(\\.\\./)+(${banned.join('|')})/`,
              message: `${dir}/ reaches that folder by its package name (@sfdb/proto/…, @sfdb/client, @sfdb/daemon), or not at all.`,
            },
            { group: ['@sfdb/client/*', '@sfdb/daemon/*'], message: 'the client and daemon packages export their root only.' },
            ...(dir.startsWith('server') ? [] : [{ group: ['sf-database', 'sf-database/*'], message: 'only the tests use the tier.' }]),
            ...(mysql ? [{ group: ['mysql2', 'mysql2/*'], message: 'only server/ touches mysql2.' }] : []),
            ...(dir === GRPC_JS_BOUNDARY ? [] : [grpcJsInternals]),
          ],
        },
      ],
    },
  })),
  { files: ['test/**/*.ts', 'bench/**/*.ts'], ignores: GRPC_JS_TESTS, rules: { 'no-restricted-imports': ['error', { patterns: [grpcJsInternals] }] } },
  { files: ['**/*.js', '**/*.mjs'], languageOptions: { globals: { process: 'readonly', console: 'readonly' } } },
);
