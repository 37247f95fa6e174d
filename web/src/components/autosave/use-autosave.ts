import { useCallback, useEffect, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import { useDebouncedCallback } from 'use-debounce';
import { isUnreachable } from '../../lib/http/errors';
import { readUnsavedCopy, removeUnsavedCopy, sameValues, writeUnsavedCopy } from './unsaved-copy';

type Values = Record<string, unknown>;

export type AutosaveState = 'saved' | 'unsaved' | 'saving' | 'offline' | 'invalid' | 'failed';

export interface AutosaveOptions<V extends Values> {
  /** The browser copy's key (user and form, `unsavedCopyKey`); null while the user or the form is not known. */
  storageKey: string | null;
  /** What the person has typed. */
  values: V;
  /** The values as the portal has them (the loaded form, or what the last save sent). */
  saved: V;
  /** A draft that may be edited; nothing is saved or kept otherwise. */
  enabled: boolean;
  /** False while a value is one the portal would refuse (the field shows why): kept in the browser, not sent. */
  valid: boolean;
  /** Writes the values as a draft (never certifies). Throws on failure. */
  save: (values: V) => Promise<void>;
  /** Puts the browser's copy back into the editor (once, when the page opens). */
  restore: (values: V) => void;
  /** Quiet time after the last keystroke before saving. */
  delayMs?: number;
}

export interface Autosave {
  state: AutosaveState;
  /** When the last save succeeded (ms since the epoch). */
  savedAt: number | null;
  /** The last failure other than an unreachable portal (a 409 or 422 is the page's to explain). */
  error: unknown;
  dirty: boolean;
  /** When the restored copy was written; null when nothing was restored (or it was discarded). */
  restoredAt: number | null;
  /** Saves now; true when the portal has the values (or had them already). */
  saveNow: () => Promise<boolean>;
  /** Saves soon: on leaving a field. */
  flush: () => void;
  /** Drops the browser's copy and puts the portal's values back. */
  discard: () => void;
  /** The in-app navigation waiting on the person's answer to "Leave this page?", if any. */
  blocker: ReturnType<typeof useBlocker>;
}

/** How often a save is tried again while the portal cannot be reached (also at once when the browser is online). */
const RETRY_MS = 15_000;

/**
 * Drafts that save themselves: a few seconds after typing stops (and on leaving a field) the values go to the portal
 * through the form's ordinary draft write; until the portal has them they are kept in this browser, so a reload, a
 * closed tab or a lost connection loses nothing. Leaving with unsaved values asks first (in-app navigation through
 * React Router's blocker, a reload or closed tab through `beforeunload`).
 */
export function useAutosave<V extends Values>(options: AutosaveOptions<V>): Autosave {
  const { storageKey, values, saved, enabled, valid, delayMs = 2500 } = options;
  const [state, setState] = useState<AutosaveState>('saved');
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [restoredAt, setRestoredAt] = useState<number | null>(null);

  // Refs for what the callbacks read at the time they run, not when they were made.
  const valuesRef = useRef(values);
  valuesRef.current = values;
  const lastSentRef = useRef<V>(saved);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const inFlight = useRef<Promise<boolean> | null>(null);

  // The portal's values changed (a reload, or the read after a save): they are now what counts as saved.
  useEffect(() => {
    lastSentRef.current = saved;
  }, [saved]);

  const dirty = enabled && !sameValues(values, lastSentRef.current) && !sameValues(values, saved);
  // Read at the moment of leaving, from what the last save sent: a save that just ended (Save and continue) is not
  // asked about even before the page renders again.
  const isDirtyNow = useCallback(() => {
    const o = optionsRef.current;
    return o.enabled && !sameValues(valuesRef.current, lastSentRef.current) && !sameValues(valuesRef.current, o.saved);
  }, []);

  // Once, when the page opens: the browser's copy of values the portal never got.
  const checked = useRef<string | null>(null);
  useEffect(() => {
    if (!enabled || !storageKey || checked.current === storageKey) return;
    checked.current = storageKey;
    const copy = readUnsavedCopy<V>(storageKey);
    if (!copy) return;
    if (sameValues(copy.values, saved)) {
      removeUnsavedCopy(storageKey);
      return;
    }
    optionsRef.current.restore({ ...saved, ...copy.values });
    setRestoredAt(copy.at);
  }, [enabled, storageKey, saved]);

  // While the values differ from the portal's, the browser keeps them.
  useEffect(() => {
    if (!enabled || !storageKey || checked.current !== storageKey) return;
    if (dirty) writeUnsavedCopy(storageKey, values, Date.now());
  }, [enabled, storageKey, values, dirty]);

  const run = useCallback(async (): Promise<boolean> => {
    // One save at a time: a later call waits for the one under way, then sends what is typed by then.
    while (inFlight.current) await inFlight.current;
    const o = optionsRef.current;
    if (!o.enabled) return true;
    const sending = valuesRef.current;
    if (sameValues(sending, lastSentRef.current)) {
      setState('saved');
      return true;
    }
    if (!o.valid) {
      setState('invalid');
      return false;
    }
    setState('saving');
    const attempt = (async () => {
      try {
        await o.save(sending);
        lastSentRef.current = sending;
        setSavedAt(Date.now());
        setError(null);
        setRestoredAt(null);
        const now = valuesRef.current;
        if (sameValues(now, sending)) {
          if (o.storageKey) removeUnsavedCopy(o.storageKey);
          setState('saved');
        } else {
          setState('unsaved'); // typed during the save: the debounce that typing started sends it
        }
        return true;
      } catch (e) {
        if (isUnreachable(e)) {
          setState('offline');
        } else {
          setError(e);
          setState('failed');
        }
        return false;
      } finally {
        inFlight.current = null;
      }
    })();
    inFlight.current = attempt;
    return attempt;
  }, []);

  const debounced = useDebouncedCallback(() => void run(), delayMs);

  // Typing: save a few seconds after it stops.
  useEffect(() => {
    if (!enabled) return;
    if (!dirty) {
      setState((s) => (s === 'failed' || s === 'offline' || s === 'saving' ? s : 'saved'));
      return;
    }
    setState((s) => (s === 'offline' || s === 'saving' ? s : valid ? 'unsaved' : 'invalid'));
    if (valid) debounced();
  }, [values, dirty, valid, enabled, debounced]);

  // The portal could not be reached: try again when the browser is back online, and every few seconds.
  useEffect(() => {
    if (state !== 'offline') return;
    const retry = () => void run();
    window.addEventListener('online', retry);
    const timer = window.setInterval(retry, RETRY_MS);
    return () => {
      window.removeEventListener('online', retry);
      window.clearInterval(timer);
    };
  }, [state, run]);

  // A reload or a closed tab with unsaved values asks first (the browser words the question).
  useEffect(() => {
    if (!enabled) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!isDirtyNow()) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [enabled, isDirtyNow]);

  // Leaving for another page of the portal: asked in the page (see LeaveDraftDialog).
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && isDirtyNow(),
  );

  // The page closes without a question (e.g. after "Leave without saving"): no save is left pending.
  useEffect(() => () => debounced.cancel(), [debounced]);

  const saveNow = useCallback(async () => {
    debounced.cancel();
    return run();
  }, [debounced, run]);

  const discard = useCallback(() => {
    debounced.cancel();
    const o = optionsRef.current;
    if (o.storageKey) removeUnsavedCopy(o.storageKey);
    setRestoredAt(null);
    setState('saved');
    o.restore(o.saved);
  }, [debounced]);

  return { state, savedAt, error, dirty, restoredAt, saveNow, flush: () => debounced.flush(), discard, blocker };
}
