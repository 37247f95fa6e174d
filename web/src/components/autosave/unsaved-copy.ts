/**
 * The browser's copy of a draft's unsaved values: kept in localStorage under the user and the form, written while
 * the values differ from what the portal has, removed once they are saved or discarded. A reload, a closed tab or
 * a portal that cannot be reached loses nothing; the form page restores the copy and says so.
 */
export interface UnsavedCopy<V> {
  values: V;
  /** When the copy was last written (ms since the epoch). */
  at: number;
}

const PREFIX = 'pecan-portal.unsaved.';

/** The storage key of a form's copy: one per user and form, so two people on one browser never see each other's. */
export const unsavedCopyKey = (user: string, form: string): string => `${PREFIX}${user}:${form}`;

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function storage(): Store | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage disabled by the browser's settings
  }
}

export function readUnsavedCopy<V>(key: string, store: Store | null = storage()): UnsavedCopy<V> | null {
  try {
    const text = store?.getItem(key);
    if (!text) return null;
    const parsed = JSON.parse(text) as Partial<UnsavedCopy<V>>;
    return parsed && typeof parsed.at === 'number' && parsed.values && typeof parsed.values === 'object'
      ? { values: parsed.values as V, at: parsed.at }
      : null;
  } catch {
    return null;
  }
}

export function writeUnsavedCopy<V>(key: string, values: V, at: number, store: Store | null = storage()): void {
  try {
    store?.setItem(key, JSON.stringify({ values, at }));
  } catch {
    // A full or disabled storage: the page still says the values are not saved.
  }
}

export function removeUnsavedCopy(key: string, store: Store | null = storage()): void {
  try {
    store?.removeItem(key);
  } catch {
    // nothing to remove
  }
}

/** Whether two sets of form values are the same, attribute by attribute (null and missing are the same). */
export function sameValues(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (JSON.stringify(a[key] ?? null) !== JSON.stringify(b[key] ?? null)) return false;
  return true;
}
