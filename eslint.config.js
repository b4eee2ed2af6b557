import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Scan reads every item of every tenant: no access pattern may use it.
const noScan = [
  { name: '@aws-sdk/client-dynamodb', importNames: ['ScanCommand'], message: 'No Scan: query a key or index.' },
  { name: '@aws-sdk/lib-dynamodb', importNames: ['ScanCommand'], message: 'No Scan: query a key or index.' },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.local/', 'coverage/', 'bench/.bundles/'] },
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
    // The named `z` export of zod is a namespace esbuild cannot tree-shake: it puts zod's 40
    // locales (~350 KB) in every Lambda bundle, where `import * as z` keeps only what is used.
    files: ['lib/**/*.ts', 'functions/**/*.ts', 'infra/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: noScan }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z']",
          message: "Use `import * as z from 'zod'` (bundle size).",
        },
      ],
    },
  },
  {
    // A handler takes its route from its area's part of the route table: the whole table imports
    // every area's schemas (and through them ajv, cron-parser, ...) into the handler's bundle.
    files: ['functions/**/*.ts'],
    ignores: ['functions/openapi/get.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...noScan,
            { name: '#infra/routes.ts', message: "Import `route` from '#infra/routes/<folder>.ts' (bundle size)." },
          ],
        },
      ],
    },
  },
);
