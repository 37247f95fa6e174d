import { OAUTH_TOKEN_KEY, SESSION_OWNED_KEYS, STORAGE_KEYS } from './keys';
import { parseStoredToken, type StoredToken } from './token-rules';
import { whenIdle } from '../when-idle';

/**
 * Where the session lives: localStorage when 'Remember me' was ticked (survives a browser restart),
 * sessionStorage otherwise. Reads look in localStorage first, then sessionStorage.
 */

export interface SessionProfile {
  username: string | null;
  userUid: string | null;
  userFirstName: string | null;
  handlerUid: string | null;
  handlerName: string | null;
  handlerNumber: string | null;
  handlerStatus: string | null;
  roles: string[];
}

export interface SessionSnapshot {
  token: StoredToken | null;
  profile: SessionProfile;
}

type Listener = () => void;

function safeStorage(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return typeof window !== 'undefined' ? window[kind] : null;
  } catch {
    return null;
  }
}

export class SessionStore {
  private listeners = new Set<Listener>();
  private snapshot: SessionSnapshot;

  constructor(
    private readonly local: Storage | null = safeStorage('localStorage'),
    private readonly session: Storage | null = safeStorage('sessionStorage'),
  ) {
    this.snapshot = this.read();
  }

  /** The storage that holds the current session (or null when signed out). */
  activeStorage(): Storage | null {
    if (this.local?.getItem(OAUTH_TOKEN_KEY)) return this.local;
    if (this.session?.getItem(OAUTH_TOKEN_KEY)) return this.session;
    return null;
  }

  isRemembered(): boolean {
    return this.activeStorage() === this.local && this.local !== null;
  }

  getSnapshot = (): SessionSnapshot => this.snapshot;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Re-reads storage (after a change here or in another tab) and notifies when something changed. */
  reload(): void {
    const next = this.read();
    if (JSON.stringify(next) !== JSON.stringify(this.snapshot)) {
      this.snapshot = next;
      for (const l of this.listeners) l();
    }
  }

  getToken(): StoredToken | null {
    return this.snapshot.token;
  }

  /** Stores the token; `remember` picks the storage on sign-in, later writes go where the session already is. */
  setToken(token: StoredToken, remember?: boolean): void {
    let target = this.activeStorage();
    if (remember !== undefined || !target) {
      this.clear();
      target = remember ? this.local : this.session;
    }
    if (!target) return;
    target.setItem(OAUTH_TOKEN_KEY, JSON.stringify(token));
    target.setItem(STORAGE_KEYS.idToken, token.access_token);
    this.reload();
  }

  /** Writes a value under one of the session's keys, in the session's storage. Values that are not strings are JSON. */
  setItem(key: string, value: unknown): void {
    const target = this.activeStorage();
    if (!target) return;
    try {
      if (value === null || value === undefined) target.removeItem(key);
      else target.setItem(key, typeof value === 'string' ? value : JSON.stringify(value, entitiesOnce()));
    } catch {
      // Quota exceeded: cached copies are optional, the server stays the source of truth.
    }
  }

  /**
   * A cached copy (the handler profile, the seasons) written once the browser is idle: serializing it takes
   * milliseconds that the first frame after signing in need not wait for, and nothing reads it before a reload.
   * Written only into the session that asked for it: not after a sign-out, nor into the next user's session.
   */
  setCopyWhenIdle(key: string, value: unknown): void {
    const token = this.activeStorage()?.getItem(OAUTH_TOKEN_KEY);
    whenIdle(() => {
      if (token && this.activeStorage()?.getItem(OAUTH_TOKEN_KEY) === token) this.setItem(key, value);
    });
  }

  getItem(key: string): string | null {
    return this.activeStorage()?.getItem(key) ?? null;
  }

  getJson<T>(key: string): T | null {
    const raw = this.getItem(key);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  }

  setProfile(profile: Partial<SessionProfile>): void {
    const map: Record<keyof Omit<SessionProfile, 'roles'>, string> = {
      username: STORAGE_KEYS.username,
      userUid: STORAGE_KEYS.userUid,
      userFirstName: STORAGE_KEYS.userFirstName,
      handlerUid: STORAGE_KEYS.handlerUid,
      handlerName: STORAGE_KEYS.handlerName,
      handlerNumber: STORAGE_KEYS.handlerNumber,
      handlerStatus: STORAGE_KEYS.handlerStatus,
    };
    for (const [field, key] of Object.entries(map) as [keyof typeof map, string][]) {
      if (field in profile) this.setItem(key, profile[field] ?? null);
    }
    if (profile.roles) this.setItem(STORAGE_KEYS.userRoles, profile.roles);
    this.reload();
  }

  /** Removes every key of the session from both storages. */
  clear(): void {
    for (const storage of [this.local, this.session]) {
      if (!storage) continue;
      for (const key of SESSION_OWNED_KEYS) storage.removeItem(key);
    }
    this.reload();
  }

  private read(): SessionSnapshot {
    const storage = this.activeStorage();
    const get = (key: string) => storage?.getItem(key) ?? null;
    const raw = get(OAUTH_TOKEN_KEY);
    const token = parseStoredToken(raw);
    if (raw && !token && storage) {
      // An invalid stored token is cleared.
      for (const key of SESSION_OWNED_KEYS) storage.removeItem(key);
    }
    let roles: string[] = [];
    try {
      const parsed = JSON.parse(get(STORAGE_KEYS.userRoles) ?? '[]');
      if (Array.isArray(parsed)) roles = parsed.filter((r): r is string => typeof r === 'string');
    } catch {
      roles = [];
    }
    return {
      token,
      profile: {
        username: token ? get(STORAGE_KEYS.username) : null,
        userUid: token ? get(STORAGE_KEYS.userUid) : null,
        userFirstName: token ? get(STORAGE_KEYS.userFirstName) : null,
        handlerUid: token ? get(STORAGE_KEYS.handlerUid) : null,
        handlerName: token ? get(STORAGE_KEYS.handlerName) : null,
        handlerNumber: token ? get(STORAGE_KEYS.handlerNumber) : null,
        handlerStatus: token ? get(STORAGE_KEYS.handlerStatus) : null,
        roles: token ? roles : [],
      },
    };
  }
}

export const sessionStore = new SessionStore();

/**
 * A JSON.stringify replacer for deserialized JSON:API resources, whose relationships link them back to each other
 * (a handler's packet confirmation names the handler): a resource met again is written as its identifier. Without
 * it the handler's cached copy (spec section 4) was never written: JSON.stringify walked the whole graph, about
 * 45 ms on the sign-in's path, then threw on the cycle.
 */
function entitiesOnce(): (this: unknown, key: string, value: unknown) => unknown {
  const seen = new WeakSet<object>();
  return (_key, value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const { id, type } = value as { id?: unknown; type?: unknown };
    if (typeof id !== 'string' || typeof type !== 'string') return value;
    if (seen.has(value)) return { type, id };
    seen.add(value);
    return value;
  };
}
