import { reset as forgetCachedStyleMap } from '@ant-design/cssinjs/es/util/cacheMapUtil';

/**
 * The dashboard's Ant Design styles, rendered at build time (web/scripts/dashboard-styles.tsx) and named by the
 * server in a meta tag of every page. /dashboard's index.html links them itself; the sign-in page links them once
 * the user starts typing, so that the dashboard shown after signing in does not compute them either (about 130 ms
 * of its render on a desktop) and a later load of /dashboard finds them in the browser's cache.
 *
 * antd reads which styles a stylesheet holds once per page, at its first component: on the sign-in page that was
 * before this stylesheet, so it is told to read again once the stylesheet has loaded. (`reset` is marked as meant
 * for antd's tests; e2e/budget.e2e.ts checks that the dashboard after a sign-in computes none of these styles.)
 * The rules are scoped to the default theme's class names: nothing on the sign-in page changes.
 */
export function addDashboardStyles(): void {
  const href = document.querySelector<HTMLMetaElement>('meta[name="dashboard-styles"]')?.content;
  if (!href || document.querySelector(`link[href="${CSS.escape(href)}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  link.onload = () => forgetCachedStyleMap();
  document.head.appendChild(link);
}
