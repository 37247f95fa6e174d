import { Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { RequireAuth } from './require-auth';
import { RequireStaff } from './require-staff';
import { DashboardRouteError, RouteError } from './route-error';
import { RootLayout } from './root-layout';
import { DASHBOARD_AREAS } from './layout/menu-items';
import { DashboardHome, DashboardLayout, StaffHome, StaleMonthsCard } from './dashboard-pages';
import { lazyPage } from '../lib/lazy-page';

// Every page is its own chunk: the first load of /signin pulls in the sign-in page only. lazyPage: a page whose
// chunk is already in renders at once, without a Suspense round (lib/lazy-page.ts).
const SignInPage = lazyPage(() => import('../features/auth/components/signin-page'));
const SignUpPage = lazyPage(() => import('../features/auth/components/signup-page'));
const ForgotPasswordPage = lazyPage(() => import('../features/auth/components/forgot-password-page'));
const ResetPasswordPage = lazyPage(() => import('../features/auth/components/reset-password-page'));
const SsoCallbackPage = lazyPage(() => import('../features/auth/components/sso-callback-page'));
const UnlockPage = lazyPage(() => import('../features/auth/components/unlock-page'));
const ConfirmEmailPage = lazyPage(() => import('../features/profile/components/confirm-email-page'));
const UnderConstructionPage = lazyPage(() => import('../features/dashboard/components/under-construction-page'));
const HelpPage = lazyPage(() => import('../features/help/components/help-page'));
const ApiReferencePage = lazyPage(() => import('../features/help/components/api-reference-page'));
const MyProfilePage = lazyPage(() => import('../features/profile/components/my-profile-page'));
const NotFoundPage = lazyPage(() => import('./pages/not-found-page'));
const InvoicesPage = lazyPage(() => import('../features/invoices/components/invoices-page'));
const FormsPackagesPage = lazyPage(() => import('../features/forms/components/forms-packages-page'));
const FormPage = lazyPage(() => import('../features/forms/components/form-page'));
const AmendFormPage = lazyPage(() => import('../features/forms/components/amend-form-page'));
const CertificationPage = lazyPage(() => import('../features/forms/components/certification-page'));
const YearEndPage = lazyPage(() => import('../features/year-end/components/year-end-page'));
const Form5EditPage = lazyPage(() => import('../features/year-end/components/form5-edit-page'));
const Form5CertificationPage = lazyPage(() => import('../features/year-end/components/form5-certification-page'));
const TransfersPage = lazyPage(() => import('../features/transfers/components/transfers-page'));
const ReportsPage = lazyPage(() => import('../features/reports/components/reports-page'));
const AnalyticsPage = lazyPage(() => import('../features/analytics/components/analytics-page'));
const HandlersPage = lazyPage(() => import('../features/directory/components/handlers-page'));
const ContactsPage = lazyPage(() => import('../features/directory/components/contacts-page'));
// The council console (staff only).
const AccountRequestsPage = lazyPage(() => import('../features/council-admin/components/account-requests-page'));
const HandlerCompaniesPage = lazyPage(() => import('../features/council-admin/components/handler-companies-page'));
const UsersPage = lazyPage(() => import('../features/council-admin/components/users-page'));
const SeasonsPage = lazyPage(() => import('../features/council-admin/components/seasons-page'));
const BoardPage = lazyPage(() => import('../features/council-ops/components/board-page'));
const FilingVersionsPage = lazyPage(() => import('../features/council-ops/components/filing-versions-page'));
const RemindersPage = lazyPage(() => import('../features/council-ops/components/reminders-page'));
const BillingPage = lazyPage(() => import('../features/council-ops/components/billing-page'));
const PublishingPage = lazyPage(() => import('../features/council-ops/components/publishing-page'));
const AuditLogPage = lazyPage(() => import('../features/council-ops/components/audit-log-page'));

const inner = (node: ReactNode) => <Suspense fallback={<PageLoader />}>{node}</Suspense>;
const staff = (node: ReactNode) => inner(<RequireStaff>{node}</RequireStaff>);

/** The data areas are routed to a page that says plainly the area is being built (see menu-items.tsx). */
const areaRoutes = DASHBOARD_AREAS.filter((a) => a.status === 'building').map((a) => ({
  path: a.path,
  element: inner(<UnderConstructionPage areaKey={a.labelKey} />),
}));

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <SignInPage /> },
      { path: '/signin', element: <SignInPage /> },
      { path: '/signup', element: <SignUpPage /> },
      { path: '/forgotpassword', element: <ForgotPasswordPage /> },
      { path: '/resetpassword', element: <ResetPasswordPage /> },
      { path: '/auth0loginCallback', element: <SsoCallbackPage /> },
      { path: '/confirm-email', element: <ConfirmEmailPage /> },
      { path: '/unlock', element: <UnlockPage /> },
      {
        path: '/dashboard',
        element: (
          <RequireAuth>
            <DashboardLayout />
          </RequireAuth>
        ),
        children: [
          {
            errorElement: <DashboardRouteError />,
            children: [
              {
                index: true,
                element: inner(<DashboardHome staleMonthsCard={StaleMonthsCard} staffHome={StaffHome} />),
              },
              { path: 'help', element: inner(<HelpPage />) },
              { path: 'help/api', element: inner(<ApiReferencePage />) },
              { path: 'my-profile', element: inner(<MyProfilePage />) },
              ...areaRoutes,
              // Navigation targets of the form workflows (spec section 2); their pages come with the forms area.
              { path: 'year-end', element: inner(<YearEndPage />) },
              { path: 'year-end/:formId', element: inner(<Form5EditPage />) },
              { path: 'form5Certification/:formId', element: inner(<Form5CertificationPage />) },
              { path: 'form5AmendCertification/:formId', element: inner(<Form5CertificationPage amendment />) },
              { path: 'transfers', element: inner(<TransfersPage />) },
              { path: 'reports', element: inner(<ReportsPage />) },
              { path: 'analytics', element: inner(<AnalyticsPage />) },
              { path: 'handlers', element: inner(<HandlersPage />) },
              { path: 'contacts', element: inner(<ContactsPage />) },
              // One profile page, the spec's route: the old edit page's address leads there.
              { path: 'profile', element: <Navigate to="/dashboard/my-profile" replace /> },
              ...['year-end-forms', 'position-reports', 'industry-analytics'].map((from) => ({
                path: from,
                element: (
                  <Navigate
                    to={`/dashboard/${from === 'year-end-forms' ? 'year-end' : from === 'position-reports' ? 'reports' : 'analytics'}`}
                    replace
                  />
                ),
              })),
              // Dashboard home, invoices and forms 1-3 (the filing area).
              { path: 'invoices', element: inner(<InvoicesPage />) },
              { path: 'forms', element: inner(<FormsPackagesPage />) },
              { path: 'forms-packages', element: <Navigate to="/dashboard/forms" replace /> },
              { path: 'forms/:bundle/:formId', element: inner(<FormPage />) },
              { path: 'formCertification/:formId', element: inner(<CertificationPage />) },
              { path: 'formAmendCertification/:formId', element: inner(<AmendFormPage />) },
              { path: 'council/account-requests', element: staff(<AccountRequestsPage />) },
              { path: 'council/handler-companies', element: staff(<HandlerCompaniesPage />) },
              { path: 'council/users', element: staff(<UsersPage />) },
              { path: 'council/seasons', element: staff(<SeasonsPage />) },
              { path: 'council/board', element: staff(<BoardPage />) },
              { path: 'council/board/filing/:bundle/:versionId', element: staff(<FilingVersionsPage />) },
              { path: 'council/reminders', element: staff(<RemindersPage />) },
              { path: 'council/billing', element: staff(<BillingPage />) },
              { path: 'council/publishing', element: staff(<PublishingPage />) },
              { path: 'council/audit-log', element: staff(<AuditLogPage />) },
              { path: '*', element: inner(<NotFoundPage embedded />) },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
