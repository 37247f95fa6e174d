import { describe, expect, it } from 'vitest';
import { ApiError, isUnreachable } from '../../lib/http/errors';
import { readUnsavedCopy, removeUnsavedCopy, sameValues, unsavedCopyKey, writeUnsavedCopy } from './unsaved-copy';

function memoryStore() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe("a draft's copy in the browser", () => {
  it('is kept per user and form, read back with its time, and removed', () => {
    const store = memoryStore();
    const alice = unsavedCopyKey('alice', 'apc_form_1:f1');
    expect(alice).not.toBe(unsavedCopyKey('bob', 'apc_form_1:f1'));
    writeUnsavedCopy(alice, { field_receipts_native: 1200 }, 1_700_000_000_000, store);
    expect(readUnsavedCopy(alice, store)).toEqual({ values: { field_receipts_native: 1200 }, at: 1_700_000_000_000 });
    expect(readUnsavedCopy(unsavedCopyKey('bob', 'apc_form_1:f1'), store)).toBeNull();
    removeUnsavedCopy(alice, store);
    expect(readUnsavedCopy(alice, store)).toBeNull();
  });

  it('reads nothing from a damaged entry or a refusing storage', () => {
    const store = memoryStore();
    store.items.set('k', '{not json');
    expect(readUnsavedCopy('k', store)).toBeNull();
    store.items.set('k', JSON.stringify({ values: 3, at: 'x' }));
    expect(readUnsavedCopy('k', store)).toBeNull();
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => undefined,
    };
    expect(readUnsavedCopy('k', refusing)).toBeNull();
    expect(() => writeUnsavedCopy('k', {}, 1, refusing)).not.toThrow();
  });

  it('compares values attribute by attribute, null and missing alike', () => {
    expect(sameValues({ a: 1, b: null }, { a: 1 })).toBe(true);
    expect(sameValues({ a: [{ variety: 'Stuart', pounds: 5 }] }, { a: [{ variety: 'Stuart', pounds: 5 }] })).toBe(true);
    expect(sameValues({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameValues({ a: 0 }, { a: null })).toBe(false);
  });
});

describe('an unreachable portal', () => {
  it("is the browser's failed fetch or a gateway's 502-504, never an answer of the portal", () => {
    expect(isUnreachable(new TypeError('Failed to fetch'))).toBe(true);
    expect(isUnreachable(new ApiError(503))).toBe(true);
    expect(isUnreachable(new ApiError(422))).toBe(false);
    expect(isUnreachable(new ApiError(409))).toBe(false);
    expect(isUnreachable(new Error('x'))).toBe(false);
  });
});
