/**
 * The dashboard's Ant Design styles, rendered at build time (web/scripts/dashboard-styles.tsx) and named by the
 * server in a meta tag of every page. /dashboard's index.html links them; the sign-in page asks the browser to
 * fetch them while the user types, so that they are in its cache when /dashboard is next loaded. A prefetch, not a
 * stylesheet: the sign-in page has no use for them, and antd reads which styles a stylesheet holds only once per
 * page, on its first component (here the sign-in form's icons), so the dashboard shown after signing in styles
 * itself as before.
 */
export function prefetchDashboardStyles(): void {
  const href = document.querySelector<HTMLMetaElement>('meta[name="dashboard-styles"]')?.content;
  if (!href || document.querySelector(`link[href="${CSS.escape(href)}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'prefetch';
  link.as = 'style';
  link.href = href;
  document.head.appendChild(link);
}
