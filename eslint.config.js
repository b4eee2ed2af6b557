import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Scan reads every item of every tenant: no access pattern may use it.
const noScan = [
  { name: '@aws-sdk/client-dynamodb', importNames: ['ScanCommand'], message: 'No Scan: query a key or index.' },
  { name: '@aws-sdk/lib-dynamodb', importNames: ['ScanCommand'], message: 'No Scan: query a key or index.' },
];

// Zod comes from lib/zod.ts: zod/mini (tree-shaken; zod classic is ~70 KB more in every Lambda
// bundle) with its English messages set, so every parse words its issues the same.
const ZOD_MESSAGE = "Import zod from 'lib/zod.ts' (zod/mini with its messages set; bundle size).";
const zodFromLib = [
  { name: 'zod', message: ZOD_MESSAGE },
  { name: 'zod/mini', message: ZOD_MESSAGE },
];

// The console's sources, which two blocks below check.
const CONSOLE_SOURCES = ['console/src/**/*.{ts,tsx}'];

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.local/', 'coverage/', 'bench/.bundles/', 'console/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['lib/**/*.ts', 'functions/**/*.ts', 'infra/**/*.ts'],
    ignores: ['lib/zod.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...noScan, ...zodFromLib],
          patterns: [{ group: ['zod/*'], message: ZOD_MESSAGE }],
        },
      ],
    },
  },
  {
    // A handler takes its route from its area's part of the route table: the whole table imports
    // every area's schemas (and through them ajv, cron-parser, ...) into the handler's bundle.
    files: ['functions/**/*.ts'],
    ignores: ['functions/openapi/get-open-api.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...noScan,
            ...zodFromLib,
            { name: '#infra/routes.ts', message: "Import `route` from '#infra/routes/<folder>.ts' (bundle size)." },
          ],
        },
      ],
    },
  },
  {
    // The console's components: React's own rules of hooks and of what a render may do (no refs read
    // or written, no hook value changed, no state set in an effect), which the React Compiler checks.
    files: CONSOLE_SOURCES,
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    // A change's queries are read again through one helper: invalidating alone keeps a first load
    // that began before the change (console/src/api/read-again.ts).
    files: CONSOLE_SOURCES,
    ignores: ['console/src/api/read-again.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'invalidateQueries',
          message: 'Use readAgain (console/src/api/read-again.ts): it drops a first load begun before the change.',
        },
      ],
    },
  },
  // Prettier formats (npm run format; npm run lint checks it), so no rule here argues layout.
  prettier,
  {
    // After `prettier`, which turns max-len off: Prettier breaks code at 140 columns but leaves long
    // strings, templates and comments whole, so this rule holds those to the same width (eslint-config-
    // prettier's "special rules": max-len may be enabled again after it).
    rules: { 'max-len': ['error', { code: 140, tabWidth: 2 }] },
  },
);
