// ESLint over the whole repository (`npm run lint`, part of `npm test`): rules that catch bugs, not
// style. Type-aware (typescript-eslint with the project's tsconfig): a promise nobody awaits or
// handles, a promise where a callback's result is ignored, an await of something that is no promise;
// unused variables and expressions; and the bug-finding rules of eslint:recommended.
// Regular expressions (eslint-plugin-regexp, every file): none may backtrack super-linearly
// (no-super-linear-backtracking, no-super-linear-move: a pattern run on client text or a source file
// must not take seconds on a long hostile input), plus the plugin's recommended rules that catch bugs.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import regexp from 'eslint-plugin-regexp';
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

/** Rules of regexp's recommended set that judge how a pattern is written, not what it matches. */
const regexpNotStyle = {
  'regexp/prefer-w': 'off',
  'regexp/prefer-d': 'off',
  'regexp/prefer-character-class': 'off',
  'regexp/use-ignore-case': 'off',
  'regexp/negation': 'off',
  'regexp/no-useless-escape': 'off',
  'regexp/no-useless-character-class': 'off',
  'regexp/no-useless-non-capturing-group': 'off',
  // A group kept for readability, or for a match read by index elsewhere.
  'regexp/no-unused-capturing-group': 'off',
  // Ranges of Cyrillic letters (А-Я) are obvious to this project's readers.
  'regexp/no-obscure-range': 'off',
  // A RegExp built from text is how this code writes long patterns (brand names, units).
  'prefer-regex-literals': 'off',
  'no-regex-spaces': 'off',
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
  {
    files: ['**/*.ts', '**/*.js', '**/*.cjs', '**/*.mjs'],
    extends: [regexp.configs['flat/recommended']],
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      ...regexpNotStyle,
    },
  },
);
