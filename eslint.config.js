// ESLint for the whole tree (npm run lint; a step of npm test and npm run test:quick, zero warnings allowed).
// The boundary rules live here: `import-x/no-restricted-paths` zones (which folder may import which) and
// `import-x/no-cycle`. Decision 0011 says why these tools; docs/ARCHITECTURE.md lists the rules.
import {
  createTypeScriptImportResolver,
  globals,
  importX,
  js,
  reactHooks,
  stylistic,
  tseslint,
} from './tools/lint/plugins.js';

const webFeatures = [
  'analytics',
  'auth',
  'council',
  'council-admin',
  'council-ops',
  'dashboard',
  'directory',
  'forms',
  'help',
  'invoices',
  'profile',
  'reports',
  'settings',
  'transfers',
  'year-end',
];

/** A web feature imports no other feature: what two features share moves to components/ or lib/. */
const noCrossFeatureImports = webFeatures.map((feature) => ({
  target: `./web/src/features/${feature}`,
  from: './web/src/features',
  except: [`./${feature}`],
  message: 'A feature imports no other feature: move what both use to web/src/components or web/src/lib.',
}));

/** The layers: the contract is shared by both sides and imports neither; the web app and the server never import
 * each other (server tests may read the web app's query builders: see the server test block below). */
const layerZones = [
  {
    target: './contract/src',
    from: ['./server', './web'],
    message: 'The contract imports neither the server nor the web app.',
  },
  { target: './web/src', from: './server', message: 'The web app never imports the server.' },
];
const serverNotWeb = { target: './server/src', from: './web', message: 'The server never imports the web app.' };

/** The web app: app/ (router, layout, providers) composes the features; a feature imports no other feature and
 * not app/; shared code (components/, lib/) imports neither a feature nor app/. */
const webZones = [
  ...noCrossFeatureImports,
  {
    target: './web/src/features',
    from: './web/src/app',
    message: 'A feature does not import app/: app/ composes the features, not the other way round.',
  },
  {
    target: ['./web/src/components', './web/src/lib'],
    from: ['./web/src/features', './web/src/app'],
    message: 'Shared code (components/, lib/) never imports a feature or app/.',
  },
];

/** The server: lib/ holds plain helpers (errors, time, caches) that import nothing else of the server. */
const serverZones = [
  {
    target: './server/src/lib',
    from: './server/src',
    except: ['./lib'],
    message: 'server/src/lib holds plain helpers: it imports nothing else of the server.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'coverage/**',
      'test-results/**',
      'test-reports/**',
      'playwright-report/**',
      'bench/results/**',
      'data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX, '@stylistic': stylistic },
    settings: {
      // import-x parses every imported module to follow cycles, with the parser set above (typescript-eslint's).
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['contract/tsconfig.json', 'server/tsconfig.json', 'web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      // `_name` marks a parameter or binding kept on purpose (a callback's position, a destructured rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Prettier wraps code at 120 columns but not comments: this holds them to it too. A string, a template or a
      // URL may run longer (SQL and messages read better whole than cut).
      '@stylistic/max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true },
      ],
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, serverNotWeb, ...webZones, ...serverZones] }],
    },
  },
  {
    // No import cycle in the product's code. Tests are left out: nothing imports a test, so a cycle through one
    // is found from the modules it imports, and following every test's imports made the rule the lint's main cost.
    files: ['{contract,server,web}/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'server/src/test-support/**'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The server's tests check the web app's own reads against the server's limits (jsonapi/query-limits), so they
    // may import its query builders (`*-params.ts`, plain functions without React) and nothing else of it.
    files: ['server/src/**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...webZones, ...serverZones] }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/web/src/(?!.*-params\\.js$)',
              message: "A server test imports only the web app's query builders (*-params.ts).",
            },
          ],
        },
      ],
    },
  },
);
