// Lint: type-aware rules that catch what the compiler does not — above all floating
// promises (grpc-js ignores a returned promise, so an un-awaited one is a lost error)
// and import cycles (proto <- server, proto <- client <- daemons must stay a tree).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'proto/gen/**', '.data/**', 'coverage/**', 'bench/rpc/scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.js'] } } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { maxDepth: 10 }],
      'no-restricted-imports': 'off',
    },
  },
  // The architecture, enforced: server and client never import each other; daemons use
  // the client only; ops tools talk to replicas, not to internals.
  {
    files: ['server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/client/**', '**/daemons/**', '**/ops/**'] }] },
  },
  {
    files: ['client/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/server/**', '**/daemons/**', '**/ops/**'] }] },
  },
  {
    files: ['daemons/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/server/**', '**/ops/**'] }] },
  },
  {
    files: ['ops/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/server/**', '**/daemons/**'] }] },
  },
  { files: ['**/*.js', '**/*.mjs'], languageOptions: { globals: { process: 'readonly', console: 'readonly' } } },
);
