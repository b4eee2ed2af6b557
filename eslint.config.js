import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.local/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Scan reads every item of every tenant: no access pattern may use it.
    files: ['lib/**/*.ts', 'functions/**/*.ts', 'infra/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@aws-sdk/client-dynamodb', importNames: ['ScanCommand'], message: 'No Scan: query a key or index.' },
            { name: '@aws-sdk/lib-dynamodb', importNames: ['ScanCommand'], message: 'No Scan: query a key or index.' },
          ],
        },
      ],
    },
  },
);
