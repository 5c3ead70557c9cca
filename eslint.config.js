// ESLint over the whole repository (`npm run lint`, part of `npm test`): rules that catch bugs, not
// style. Type-aware (typescript-eslint with the project's tsconfig): a promise nobody awaits or
// handles, a promise where a callback's result is ignored, an await of something that is no promise;
// unused variables and expressions; and the bug-finding rules of eslint:recommended.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Rules of eslint:recommended (and typescript-eslint's overrides of it) that judge style, not bugs. */
const notStyle = {
  // How a value is declared or written.
  'prefer-const': 'off',
  'no-var': 'off',
  'prefer-rest-params': 'off',
  'prefer-spread': 'off',
  'no-regex-spaces': 'off',
  'no-useless-escape': 'off',
  // A dead store (an initial value overwritten before it is read) is no bug by itself.
  'no-useless-assignment': 'off',
};

export default defineConfig(
  {
    // Generated or installed files, and the local data folders (.gitignore).
    ignores: ['node_modules/**', 'data/**', '.tmp*/**', '.test-output/**', 'bench/results/**'],
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.eslintRecommended],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', {
        // node:test's test(), describe() and their aliases return promises that the runner awaits.
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] }],
      }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      'no-unused-vars': 'off',
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true,
      }],
      'no-unused-expressions': 'off',
      '@typescript-eslint/no-unused-expressions': 'error',
      ...notStyle,
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
    rules: notStyle,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
);
