import { useSyncExternalStore } from 'react';
import { sessionStore, type SessionSnapshot } from './session-store';

export function useSession(): SessionSnapshot & { signedIn: boolean; isStaff: boolean } {
  const snap = useSyncExternalStore(sessionStore.subscribe, sessionStore.getSnapshot, sessionStore.getSnapshot);
  return { ...snap, signedIn: snap.token !== null, isStaff: snap.profile.roles.includes('staff') };
}
