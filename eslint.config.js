// Lint configuration: typescript-eslint's recommended rules; the layering of DESIGN.md as an
// allow-list (eslint-plugin-boundaries: a layer may import only what its row names); machines/ kept
// pure (no I/O, no clock, no env); composition roots in runtime/ kept short.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/** The layers, and which of them each may import (DESIGN.md §3). */
const LAYERS = {
  domain: [],
  ports: ['domain'],
  strategies: ['domain'],
  machines: ['domain'],
  application: ['domain', 'ports', 'machines', 'strategies'],
  adapters: ['domain', 'ports'],
  api: ['domain', 'ports', 'application'],
  runtime: ['domain', 'ports', 'strategies', 'machines', 'application', 'adapters', 'api', 'runtime'],
  cli: ['runtime'],
};

export default tseslint.config(
  {
    // docs/ is Markdown, except the docs site's config (linted); its cache and build output are generated.
    ignores: [
      'node_modules/**',
      'var/**',
      'docs/*',
      '!docs/.vitepress',
      'docs/.vitepress/*',
      '!docs/.vitepress/config.mts',
      'coverage/**',
      'dist/**',
      'runs/**',
      'test-artifacts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        AbortController: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts', 'machines/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/elements': [
        { type: 'machines', pattern: 'machines' },
        ...Object.keys(LAYERS)
          .filter((layer) => layer !== 'machines')
          .map((layer) => ({ type: layer, pattern: `src/${layer}` })),
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: Object.entries(LAYERS).map(([layer, allowed]) => ({
            from: { element: { type: layer } },
            allow: { to: { element: { types: { anyOf: [layer, ...allowed] } } } },
          })),
        },
      ],
      // Every file of ours belongs to a layer.
      'boundaries/no-unknown-files': 'error',
    },
  },
  {
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', 'ioredis', 'better-sqlite3', 'fastify', 'pino'] }],
      'no-restricted-globals': ['error', 'process', 'setTimeout', 'setInterval'],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'machines take time from events or the injected clock' },
      ],
    },
  },
  {
    // Composition roots compose; a function longer than this wants its own module.
    files: ['src/runtime/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
);
