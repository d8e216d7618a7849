// Lint: typescript-eslint's recommended rules, and the layers as import rules (docs/design.md).
import stylistic from '@stylistic/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Node's own modules and globals, which the renderer (a browser page) does not have. */
const NODE_MODULES = [
  'node:*',
  ...['fs', 'path', 'os', 'child_process', 'crypto', 'worker_threads', 'url', 'util'].flatMap((m) => [m, `${m}/*`]),
  'stream',
  'http',
  'https',
  'net',
  'events',
  'buffer',
  'process',
];
const NODE_GLOBALS = ['process', 'Buffer', 'require', '__dirname', '__filename', 'global', 'module'];

/** The engine's layers as import patterns, from the bottom up (docs/design.md §1.4). */
const LAYER = {
  forecast: '**/forecast/**',
  recommend: '**/recommend/**',
  simulate: '**/simulate/**',
  store: '**/store/**',
  ingest: '**/ingest/**',
  inputs: '**/inputs/**',
  service: '**/service/**',
  server: '**/server/**',
};
const ADAPTERS = [LAYER.server, '**/cli', '**/cli.js', '**/cli/**'];
const SERVICE_LAYERS = [LAYER.store, LAYER.ingest, LAYER.inputs, LAYER.service, ...ADAPTERS];

/** A layer's rule: the layers above it (or beside it) that it may not import, and why. */
const layerRule = (files, group, message) => ({
  files,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group, message }] }] },
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'out/',
      'out-cli/',
      'dist/',
      'test-output/',
      '.workspaces/',
      '.scratch/',
      'samples/demo/',
    ],
  },
  ...tseslint.configs.recommended,
  {
    plugins: { '@stylistic': stylistic },
    rules: {
      // Prettier wraps code at 120; strings and comments it leaves alone are held to the same width here.
      '@stylistic/max-len': ['error', { code: 120, tabWidth: 2 }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // A callback set up before the value it reads is assigned.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests read JSON bodies of any shape.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // The engine's pure parts know nothing of storage, the service or its adapters.
  layerRule(
    ['engine/model/**', 'engine/forecast/**', 'engine/recommend/**', 'engine/simulate/**'],
    SERVICE_LAYERS,
    'model, forecast, recommend and simulate import nothing from store, ingest, inputs, service, server or cli.',
  ),
  // The workspace's storage knows the datasets' schemas and nothing of what reads or writes it.
  layerRule(
    ['engine/store/**'],
    [LAYER.forecast, LAYER.recommend, LAYER.simulate, LAYER.ingest, LAYER.inputs, LAYER.service, ...ADAPTERS],
    "store imports only model: what builds the engine's inputs from it is inputs/, what writes it ingest/.",
  ),
  // The spec's write semantics and the feed lint sit on the store alone.
  layerRule(
    ['engine/ingest/**'],
    [LAYER.forecast, LAYER.recommend, LAYER.simulate, LAYER.inputs, LAYER.service, ...ADAPTERS],
    'ingest imports only model and store.',
  ),
  // The engine's inputs read from the workspace: below the service that asks for them.
  layerRule(
    ['engine/inputs/**'],
    [LAYER.ingest, LAYER.service, ...ADAPTERS],
    'inputs imports model, store and the engine, nothing of ingest, service, server or cli.',
  ),
  // The service is what the adapters call; it never calls them.
  layerRule(['engine/service/**'], ADAPTERS, 'service imports nothing from server or cli.'),
  {
    // What the renderer and the command line share runs in both: no Node, no engine code, no React.
    files: ['common/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/engine/**'], allowTypeImports: true, message: 'common/ takes engine code as types only.' },
            { group: ['**/src-*/**', 'react', 'react-dom'], message: 'common/ knows nothing of the shells.' },
            { group: NODE_MODULES, message: 'common/ runs in a browser too: no Node modules.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', ...NODE_GLOBALS],
    },
  },
  {
    // React's rules of hooks, and every value an effect or a memo reads among its dependencies: one left out shows
    // figures read for another run, style or setting.
    files: ['src-renderer/**/*.tsx', 'src-renderer/**/*.ts', 'test/components/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The renderer runs in a browser: the engine's types reach it through common/api-types.ts, its code never.
    files: ['src-renderer/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/engine/**'],
              message: "The renderer takes the engine's types from common/api-types.ts, and none of its code.",
            },
            { group: NODE_MODULES, message: 'The renderer runs in a browser: no Node modules.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', ...NODE_GLOBALS],
    },
  },
);
