/**
 * "Your session has ended" for the sign-in page: set when a session ends by itself (timed out, refused by the server
 * because it was ended elsewhere, or signed out in another tab), read once by the sign-in page. Kept in this tab's
 * sessionStorage rather than in the navigation's state, because the protected route that redirects to sign-in at the
 * same moment carries no state.
 */
const KEY = 'pecan-portal.session-ended';

export function markSessionEnded(): void {
  try {
    sessionStorage.setItem(KEY, '1');
  } catch {
    // storage refused: the navigation's state still carries it
  }
}

/** Whether a session ended by itself since the notice was last shown. */
export function sessionEndedNotice(): boolean {
  try {
    return sessionStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

/** The sign-in page showed the notice (or a new session began): it is not shown again. */
export function clearSessionEnded(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing to clear
  }
}
