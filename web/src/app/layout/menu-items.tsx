/**
 * The product's menu (no template demo entries). Keys are the last path segment of each page, so the sidebar's
 * open and current entries follow the browser path.
 */
export interface DashboardArea {
  key: string;
  /** Path below /dashboard ('' for the dashboard home). */
  path: string;
  labelKey: string;
  icon: string;
  group?: 'council';
  /** A handler's own filings and accounts: hidden from users of no handler (council staff). */
  handlerOnly?: true;
  /** 'ready' pages exist; 'building' areas are routed to the page that says so. */
  status: 'ready' | 'building';
}

export const DASHBOARD_AREAS: DashboardArea[] = [
  { key: 'dashboard', path: '', labelKey: 'nav.dashboard', icon: 'dashboard', status: 'ready' },
  { key: 'invoices', path: 'invoices', labelKey: 'nav.invoices', icon: 'invoices', status: 'ready', handlerOnly: true },
  {
    key: 'forms-packages',
    path: 'forms',
    labelKey: 'nav.formsPackages',
    icon: 'forms',
    status: 'ready',
    handlerOnly: true,
  },
  {
    key: 'year-end-forms',
    path: 'year-end',
    labelKey: 'nav.yearEndForms',
    icon: 'yearEnd',
    status: 'ready',
    handlerOnly: true,
  },
  {
    key: 'transfers',
    path: 'transfers',
    labelKey: 'nav.transfers',
    icon: 'transfers',
    status: 'ready',
    handlerOnly: true,
  },
  { key: 'position-reports', path: 'reports', labelKey: 'nav.positionReports', icon: 'reports', status: 'ready' },
  {
    key: 'industry-analytics',
    path: 'analytics',
    labelKey: 'nav.industryAnalytics',
    icon: 'analytics',
    status: 'ready',
  },
  { key: 'handlers', path: 'handlers', labelKey: 'nav.handlers', icon: 'handlers', status: 'ready' },
  { key: 'contacts', path: 'contacts', labelKey: 'nav.contacts', icon: 'contacts', status: 'ready', handlerOnly: true },
  { key: 'help', path: 'help', labelKey: 'nav.help', icon: 'help', status: 'ready' },
  // The council console (staff only; sidebar-menu.tsx shows the group to staff, RequireStaff guards the routes).
  // Keys are unique last path segments, so they cannot be 'handlers' or 'invoices' (the handler's own areas).
  {
    key: 'account-requests',
    path: 'council/account-requests',
    labelKey: 'nav.accountRequests',
    icon: 'requests',
    group: 'council',
    status: 'ready',
  },
  {
    key: 'handler-companies',
    path: 'council/handler-companies',
    labelKey: 'nav.councilHandlers',
    icon: 'handlers',
    group: 'council',
    status: 'ready',
  },
  {
    key: 'users',
    path: 'council/users',
    labelKey: 'nav.councilUsers',
    icon: 'users',
    group: 'council',
    status: 'ready',
  },
  {
    key: 'seasons',
    path: 'council/seasons',
    labelKey: 'nav.councilSeasons',
    icon: 'seasons',
    group: 'council',
    status: 'ready',
  },
  {
    key: 'board',
    path: 'council/board',
    labelKey: 'nav.councilBoard',
    icon: 'board',
    group: 'council',
    status: 'ready',
  },
  {
    key: 'reminders',
    path: 'council/reminders',
    labelKey: 'nav.councilReminders',
    icon: 'reminders',
    group: 'council',
    status: 'ready',
  },
  {
    key: 'billing',
    path: 'council/billing',
    labelKey: 'nav.councilInvoices',
    icon: 'invoices',
    group: 'council',
    status: 'ready',
  },
  {
    key: 'publishing',
    path: 'council/publishing',
    labelKey: 'nav.councilPublishing',
    icon: 'publishing',
    group: 'council',
    status: 'ready',
  },
  {
    key: 'audit-log',
    path: 'council/audit-log',
    labelKey: 'nav.councilAudit',
    icon: 'audit',
    group: 'council',
    status: 'ready',
  },
];

/** Pages without a menu entry of their own, and the entry that stays current on them. */
const PARENT_OF: Record<string, string> = {
  forms: 'forms-packages',
  formCertification: 'forms-packages',
  formAmendCertification: 'forms-packages',
  form5Certification: 'year-end-forms',
  form5AmendCertification: 'year-end-forms',
  'year-end': 'year-end-forms',
  reports: 'position-reports',
  analytics: 'industry-analytics',
};

/**
 * Selected and open menu keys from the path: the last segment that is a menu key (or maps to one) wins. The
 * dashboard's own segment counts only as the whole path: below it, a page with no entry (My Profile) selects none.
 */
export function menuStateFromPath(pathname: string): { selectedKey: string | null; openKeys: string[] } {
  const segments = pathname.split('/').filter(Boolean);
  for (let i = segments.length - 1; i >= 0; i--) {
    if (i === 0 && segments.length > 1) break;
    const seg = decodeURIComponent(segments[i]);
    const key = PARENT_OF[seg] ?? seg;
    const area = DASHBOARD_AREAS.find((a) => a.key === key);
    if (area) return { selectedKey: area.key, openKeys: area.group ? [area.group] : [] };
  }
  return { selectedKey: null, openKeys: [] };
}

/** The menu's own entries (not the council group) a user sees: handler-only ones need a handler. */
export function mainAreas(hasHandler: boolean): DashboardArea[] {
  return DASHBOARD_AREAS.filter((a) => !a.group && (hasHandler || !a.handlerOnly));
}

export function areaHref(area: DashboardArea): string {
  return area.path ? `/dashboard/${area.path}` : '/dashboard';
}
