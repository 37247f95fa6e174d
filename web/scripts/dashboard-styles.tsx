/**
 * Runs after `vite build` (web/package.json): writes the Ant Design styles of the dashboard's first screen, in the
 * default theme, as a stylesheet: `dist/assets/dashboard-antd-<hash>.css` (with .br and .gz copies, as the build
 * writes for every asset) and `dist/dashboard-styles.json` naming it for the server.
 *
 * Why: antd computes each component's CSS in the browser the first time it renders (style objects, serializing,
 * hashing, a `<style>` insert each), about half the script time of the dashboard's first load on a phone. antd's
 * own ahead-of-time route ("extract on demand": render, then `extractStyle` of the style cache) gives the same CSS
 * plus a map of what it holds (`.data-ant-cssinjs-cache-path`); with that stylesheet on the page antd's runtime
 * uses it and computes none of those styles. A theme other than the default has other hashes, so antd computes its
 * styles as before. The server links the stylesheet from /dashboard's index.html only (server/src/plugins/web.ts);
 * the sign-in page adds it once the user types (lib/theme/dashboard-styles.ts), so it is cached by then.
 *
 * The components below are the ones the dashboard's layout and home page render (a component missing here is
 * simply styled at run time, as before). Rendering one of each is enough: antd registers a component's whole
 * style (every variant) on its first render, per theme.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  ConfigProvider,
  Descriptions,
  Dropdown,
  Empty,
  Layout,
  Menu,
  Row,
  Skeleton,
  Space,
  Tag,
  Typography,
} from 'antd';
import tableStyleModule from 'antd/lib/table/style';
import { renderToString } from 'react-dom/server';
import { barColors, barTheme, buildAntdTheme, DEFAULT_THEME } from '../src/lib/theme/themes';
import { webMechanisms, webOutDir } from './build-mechanisms';

// antd's class names carry a "dev-only" prefix outside production builds; they must match the built app's.
if (process.env.NODE_ENV !== 'production') throw new Error('run with NODE_ENV=production (npm run build -w web does)');

// antd/lib is CommonJS: its default export arrives wrapped once more.
const useTableStyle =
  (tableStyleModule as unknown as { default?: typeof tableStyleModule }).default ?? tableStyleModule;

/** The table styles components/static-table.tsx uses (antd's Table itself would add pagination, filters...). */
function TableStyles() {
  const [wrap] = useTableStyle('ant-table', 'ant-table-css-var');
  return wrap(<div />);
}

function DashboardComponents() {
  return (
    <ConfigProvider theme={buildAntdTheme(DEFAULT_THEME)}>
      <App>
        <Layout>
          <Layout.Sider>
            <Menu mode="inline" theme="dark" items={[{ key: 'a', label: 'a' }]} />
          </Layout.Sider>
          <Layout.Header>
            {/* The topbar's own theme (app/layout/topbar.tsx). */}
            <ConfigProvider theme={barTheme(barColors(DEFAULT_THEME.topbar, DEFAULT_THEME.dark))}>
              <Space>
                <Button type="text">b</Button>
                <Dropdown menu={{ items: [] }}>
                  <Button>b</Button>
                </Dropdown>
              </Space>
            </ConfigProvider>
          </Layout.Header>
          <Layout.Content>
            <Space>
              <Card title="t">
                <Row>
                  <Col span={12}>
                    <Typography.Title>t</Typography.Title>
                    <Typography.Paragraph>p</Typography.Paragraph>
                  </Col>
                </Row>
                <Button>b</Button>
                <Tag color="blue">t</Tag>
                <Alert message="m" />
                <Skeleton />
                <Empty />
                <Descriptions items={[{ key: 'k', label: 'l', children: 'c' }]} />
                <TableStyles />
              </Card>
            </Space>
          </Layout.Content>
        </Layout>
      </App>
    </ConfigProvider>
  );
}

const dist = webOutDir();
if (!webMechanisms()['antd-stylesheet']) {
  // A measurement build without it (PORTAL_WEB_MECHANISMS_OFF): antd styles the dashboard at run time.
  console.log('dashboard styles: off (PORTAL_WEB_MECHANISMS_OFF)');
  process.exit(0);
}
const cache = createCache();
renderToString(
  <StyleProvider cache={cache}>
    <DashboardComponents />
  </StyleProvider>,
);
const css = extractStyle(cache, { plain: true });
const name = `assets/dashboard-antd-${createHash('sha256').update(css).digest('base64url').slice(0, 8)}.css`;
writeFileSync(join(dist, name), css);
writeFileSync(join(dist, `${name}.br`), brotliCompressSync(css, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
const gzipped = gzipSync(css, { level: 9 });
writeFileSync(join(dist, `${name}.gz`), gzipped);
writeFileSync(join(dist, 'dashboard-styles.json'), JSON.stringify({ href: `/${name}`, paths: ['/dashboard'] }));
console.log(
  `dashboard styles: dist/${name} (${Math.round(css.length / 1024)} KB, ${Math.round(gzipped.length / 1024)} KB gzip)`,
);
