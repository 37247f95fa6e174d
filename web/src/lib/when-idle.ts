/**
 * Runs work once the main thread is idle (requestIdleCallback), or at the next task where the browser lacks it
 * (Safari): for work that must not sit in the task of a keystroke or of the first frame after signing in.
 */
export function whenIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => run());
  else setTimeout(run, 1);
}
