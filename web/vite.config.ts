import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * antd's form context (imported by every input, select, button and space) takes `FormProvider` from
 * rc-field-form's index, which attaches the whole form library to its default export and so cannot be
 * tree-shaken: every signed-in page carried the form store and its validator (about 9 KB gzip) before any form
 * was shown. This points that one import at the module that defines FormProvider.
 */
function formContextOnly(): Plugin {
  return {
    name: 'antd-form-context-only',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'rc-field-form' || !importer || !/antd[\\/]es[\\/]form[\\/]context\.js$/.test(importer)) return null;
      return this.resolve('rc-field-form/es/FormContext', importer, { skipSelf: true });
    },
  };
}

/**
 * antd components import heavy parts for what a page shows only later or never: Card imports Tabs for `tabList`
 * (about 10 KB gzip) and Typography imports TextArea for `editable` (about 10 KB). Every page with a card or a
 * paragraph paid for both on its first load. These imports get a stand-in that loads the real component when one is
 * first rendered (same props and ref), so they cost nothing until used. (Select's option list was tried too and
 * dropped: a keyboard user's first keys on a select were lost while the list loaded.)
 */
const LAZY_PIECES = [
  { importer: /antd[\\/]es[\\/]card[\\/]Card\.js$/, source: '../tabs', target: 'antd/es/tabs' },
  { importer: /antd[\\/]es[\\/]typography[\\/]Editable\.js$/, source: '../input/TextArea', target: 'antd/es/input/TextArea' },
];

/** antd's App creates modal and notification hooks for `App.useApp()`: these load their code on the first call. */
const LAZY_APP_HOOKS: Record<string, string> = {
  '../modal/useModal': fileURLToPath(new URL('./src/lib/antd/lazy-use-modal.ts', import.meta.url)),
  '../notification/useNotification': fileURLToPath(new URL('./src/lib/antd/lazy-use-notification.ts', import.meta.url)),
};

function lazyAntdPieces(): Plugin {
  const prefix = '\0lazy-antd:';
  return {
    name: 'lazy-antd-pieces',
    enforce: 'pre',
    resolveId(source, importer) {
      if (LAZY_APP_HOOKS[source] && importer && /antd[\\/]es[\\/]app[\\/]App\.js$/.test(importer)) return LAZY_APP_HOOKS[source];
      const piece = importer ? LAZY_PIECES.find((p) => p.source === source && p.importer.test(importer)) : undefined;
      return piece ? prefix + piece.target : null;
    },
    load(id) {
      if (!id.startsWith(prefix)) return null;
      const target = id.slice(prefix.length);
      return [
        `import { createElement, lazy, Suspense } from 'react';`,
        `const Real = lazy(() => import(${JSON.stringify(target)}));`,
        `export default function LazyPiece(props) { return createElement(Suspense, { fallback: null }, createElement(Real, props)); }`,
      ].join('\n');
    },
  };
}

const serverTarget = 'http://127.0.0.1:3000';
const proxied = ['/oauth', '/jsonapi', '/files', '/api', '/healthz'];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), formContextOnly(), lazyAntdPieces()],
  resolve: {
    // `@pecan/contract/<module>` reaches one module of the contract (e.g. money/money), so a page that needs only
    // money formatting does not pull in the form schemas with zod and the country names.
    alias: [
      { find: /^@pecan\/contract$/, replacement: fileURLToPath(new URL('../contract/src/index.ts', import.meta.url)) },
      { find: /^@pecan\/contract\/(.+)$/, replacement: `${fileURLToPath(new URL('../contract/src/', import.meta.url))}$1.ts` },
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
    // The entry's own code and everything it imports statically (React, the router, i18n, antd's theme, the
    // session) in one chunk: every page loads all of it anyway, and the bundler otherwise cut it into some forty
    // small chunks by which lazy pages share which piece; gzip compresses each file alone, so that cost every
    // route about 14 KB and forty requests (/signin 192 -> 180 KB, /dashboard 338 -> 322 KB).
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } } },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: serverTarget, changeOrigin: false }])),
  },
  preview: {
    port: 4173,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: serverTarget, changeOrigin: false }])),
  },
});
