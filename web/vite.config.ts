import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { webMechanisms, webOutDir } from './scripts/build-mechanisms';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

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
      if (source !== 'rc-field-form' || !importer || !/antd[\\/]es[\\/]form[\\/]context\.js$/.test(importer))
        return null;
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
  {
    importer: /antd[\\/]es[\\/]typography[\\/]Editable\.js$/,
    source: '../input/TextArea',
    target: 'antd/es/input/TextArea',
  },
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
      if (LAZY_APP_HOOKS[source] && importer && /antd[\\/]es[\\/]app[\\/]App\.js$/.test(importer))
        return LAZY_APP_HOOKS[source];
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

/**
 * Brotli (quality 11) and gzip (level 9) copies of every compressible file the build writes, next to it
 * (`x.js.br`, `x.js.gz`): the server sends them as they are (@fastify/static `preCompressed`), so no request pays
 * for compressing, and brotli at its best level is about 15% smaller than what on-the-fly compression (quality 4)
 * sends.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
        );
      for (const file of walk(outDir)) {
        if (!/\.(js|css|svg|json|html)$/.test(file)) continue;
        const body = readFileSync(file);
        if (body.length < 1024) continue; // as the server's threshold: not worth a header
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

/** The lazy page chunks each first-load path renders (source modules, as in src/app/router.tsx). */
const ROUTE_PAGES: Record<string, string[]> = {
  '/': ['src/features/auth/components/signin-page.tsx'],
  '/signin': ['src/features/auth/components/signin-page.tsx'],
  '/dashboard': ['src/app/layout/dashboard-layout.tsx', 'src/features/dashboard/components/dashboard-home.tsx'],
};

/** A chunk and every chunk it imports statically, without those the entry loads anyway. */
function staticClosure(bundle: OutputBundle, roots: OutputChunk[], skip: Set<string>): string[] {
  const seen = new Set<string>();
  const stack = roots.map((c) => c.fileName);
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file) || skip.has(file)) continue;
    seen.add(file);
    const chunk = bundle[file];
    if (chunk?.type === 'chunk') stack.push(...chunk.imports);
  }
  return [...seen];
}

/**
 * A lazy page starts loading only once the entry has run (React renders the route, which imports the page), so
 * the page's chunks came one after the other behind the 170 KB entry. The build writes `route-preload.json`: for
 * each first-load path, the chunks of its pages (with their static imports, less what the entry loads anyway). The
 * server puts them in that path's index.html as `<link rel="modulepreload">` (server/src/plugins/web.ts), so they
 * download alongside the entry. (An inline script in index.html could not do it: the CSP allows no inline script.)
 */
function routePreload(): Plugin {
  return {
    name: 'route-preload',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
      const byModule = (suffix: string) =>
        chunks.filter((c) => c.moduleIds.some((id) => id.replace(/\\/g, '/').endsWith(suffix)));
      const initial = new Set(
        staticClosure(
          bundle,
          chunks.filter((c) => c.isEntry),
          new Set(),
        ),
      );
      const routes = Object.fromEntries(
        Object.entries(ROUTE_PAGES).map(([path, pages]) => [
          path,
          staticClosure(bundle, pages.flatMap(byModule), initial).map((f) => `/${f}`),
        ]),
      );
      for (const [path, files] of Object.entries(routes))
        if (files.length === 0) this.warn(`no chunk found for the pages of ${path}`);
      this.emitFile({ type: 'asset', fileName: 'route-preload.json', source: JSON.stringify(routes) });
    },
  };
}

/**
 * Small modules that the sign-in page and every signed-in page load (the query hook, the icon component and the
 * user icon, the language switcher, the document title, form fields and buttons): one shared chunk rather than a
 * file each. The bytes are about the same on every route; what changes is the number of requests: a phone's first
 * load of a page pays a round trip for every few files (HTTP/1.1 opens at most six connections at once), and
 * /signin was 12 files (now 4: Lighthouse's simulated first paint 2.2-2.4 s -> 1.9-2.0 s). A module listed here
 * brings along what it imports that no other group took; whatever the sign-in page's chunk captures, the pages
 * that import it load that chunk too, which is why the user icon (also in the topbar) is here.
 */
const SHARED_BY_EVERY_PAGE =
  /[\\/](@tanstack[\\/]react-query[\\/]build[\\/]modern[\\/](useQuery|useBaseQuery|QueryErrorResetBoundary|IsRestoringProvider|errorBoundaryUtils|suspense)\.js|@ant-design[\\/]icons[\\/]es[\\/]components[\\/]|@ant-design[\\/]icons(-svg)?[\\/]es[\\/](icons|asn)[\\/]UserOutlined\.js|src[\\/]components[\\/](language-switcher|use-document-title|field|plain-button)\.tsx?|src[\\/]features[\\/]auth[\\/]api[\\/]redirect\.ts)/;
/** The sign-in page with its frame, its lock icon and what only it imports, as one file. */
const SIGNIN_PAGE =
  /[\\/](src[\\/](features[\\/]auth[\\/]components[\\/]signin-page|components[\\/]auth-shell)\.tsx|@ant-design[\\/]icons(-svg)?[\\/]es[\\/](icons|asn)[\\/]LockOutlined\.js)/;

const serverTarget = 'http://127.0.0.1:3000';
const proxied = ['/oauth', '/jsonapi', '/files', '/api', '/healthz', '/subrequests'];

/** The build's performance mechanisms (scripts/build-mechanisms.ts): all on unless PORTAL_WEB_MECHANISMS_OFF says. */
const mechanisms = webMechanisms();

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [
    react(),
    ...(mechanisms['antd-rewire'] ? [formContextOnly(), lazyAntdPieces()] : []),
    routePreload(),
    precompress(),
  ],
  define: { __PORTAL_SIGNIN_BATCH__: JSON.stringify(mechanisms['signin-batch']) },
  resolve: {
    // `@pecan/contract/<module>` reaches one module of the contract (e.g. money/money), so a page that needs only
    // money formatting does not pull in the form schemas with zod and the country names.
    alias: [
      { find: /^@pecan\/contract$/, replacement: fileURLToPath(new URL('../contract/src/index.ts', import.meta.url)) },
      {
        find: /^@pecan\/contract\/(.+)$/,
        replacement: `${fileURLToPath(new URL('../contract/src/', import.meta.url))}$1.ts`,
      },
    ],
  },
  build: {
    outDir: webOutDir(),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
    // The entry's own code and everything it imports statically (React, the router, i18n, antd's theme, the
    // session) in one chunk: every page loads all of it anyway, and the bundler otherwise cut it into some forty
    // small chunks by which lazy pages share which piece; gzip compresses each file alone, so that cost every
    // route about 14 KB and forty requests (/signin 192 -> 180 KB, /dashboard 338 -> 322 KB).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'] },
            { name: 'common', test: SHARED_BY_EVERY_PAGE },
            { name: 'signin-page', test: SIGNIN_PAGE },
          ],
        },
      },
    },
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
