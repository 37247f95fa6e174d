/**
 * What signing in loads ahead: the signed-in pages' code and texts. app/ sets it (app/dashboard-pages.ts), since it
 * composes the pages; the sign-in page (features/auth) calls it, and a feature does not import app/.
 */
let preload: () => void = () => undefined;

export function setSignInPreload(load: () => void): void {
  preload = load;
}

export function preloadSignedInPages(): void {
  preload();
}
