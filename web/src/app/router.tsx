import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { RequireAuth } from './require-auth';
import { DashboardRouteError, RouteError } from './route-error';
import { RootLayout } from './root-layout';
import { DASHBOARD_AREAS } from './layout/menu-items';

// Every page is its own chunk: the first load of /signin pulls in the sign-in page only.
const SignInPage = lazy(() => import('../features/auth/components/signin-page'));
const SignUpPage = lazy(() => import('../features/auth/components/signup-page'));
const ForgotPasswordPage = lazy(() => import('../features/auth/components/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/components/reset-password-page'));
const SsoCallbackPage = lazy(() => import('../features/auth/components/sso-callback-page'));
const DashboardLayout = lazy(() => import('./layout/dashboard-layout'));
const DashboardHome = lazy(() => import('../features/dashboard/components/dashboard-home'));
const UnderConstructionPage = lazy(() => import('../features/dashboard/components/under-construction-page'));
const HelpPage = lazy(() => import('../features/help/components/help-page'));
const MyProfilePage = lazy(() => import('../features/profile/components/my-profile-page'));
const NotFoundPage = lazy(() => import('./pages/not-found-page'));

const inner = (node: ReactNode) => <Suspense fallback={<PageLoader />}>{node}</Suspense>;

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
              { index: true, element: inner(<DashboardHome />) },
              { path: 'help', element: inner(<HelpPage />) },
              { path: 'my-profile', element: inner(<MyProfilePage />) },
              ...areaRoutes,
              // Navigation targets of the form workflows (spec section 2); their pages come with the forms area.
              ...['formCertification/:formId', 'formAmendCertification/:formId', 'form5Certification/:formId', 'form5AmendCertification/:formId'].map((path) => ({
                path,
                element: inner(<UnderConstructionPage areaKey="nav.formCertification" />),
              })),
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
