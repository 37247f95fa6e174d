import { describe, expect, it } from 'vitest';
import { DependencyError, dependencyOrder, findTokens, parsePath, valueAt } from './replacements.js';

describe('replacement tokens', () => {
  it('reads the one-value JSONPath subset', () => {
    expect(parsePath('$.data[0].relationships.field_user_handler_company.data.id')).toEqual([
      'data',
      0,
      'relationships',
      'field_user_handler_company',
      'data',
      'id',
    ]);
    expect(parsePath("$['data'][12]['a b']")).toEqual(['data', 12, 'a b']);
    expect(parsePath('$')).toEqual([]);
    for (const path of ['$..id', '$.data[*].id', '$.data[?(@.id)]', 'data.id', '$.data[-1]', '$.data.', "$['a"])
      expect(parsePath(path), path).toBeNull();
  });

  it('finds every token of a uri, and refuses one with another JSONPath', () => {
    const uri =
      '/jsonapi/node/invoice?filter%5Ba%5D={{user.body@$.data[0].id}}&filter%5Bb%5D={{my.list.body@$.meta.count}}';
    expect(findTokens(uri)).toEqual([
      { text: '{{user.body@$.data[0].id}}', requestId: 'user', path: ['data', 0, 'id'] },
      { text: '{{my.list.body@$.meta.count}}', requestId: 'my.list', path: ['meta', 'count'] },
    ]);
    expect(findTokens('/jsonapi/node/season')).toEqual([]);
    expect(() => findTokens('/jsonapi/node/season/{{a.body@$..id}}')).toThrow(/JSONPath/);
  });

  it('takes a string or a number, nothing else', () => {
    const body = { data: [{ id: 'h1', n: 3, none: null, obj: {}, list: ['x'] }] };
    expect(valueAt(body, ['data', 0, 'id'])).toBe('h1');
    expect(valueAt(body, ['data', 0, 'n'])).toBe(3);
    expect(valueAt(body, ['data', 0, 'none'])).toBeUndefined();
    expect(valueAt(body, ['data', 0, 'obj'])).toBeUndefined();
    expect(valueAt(body, ['data', 0, 'list'])).toBeUndefined();
    expect(valueAt(body, ['data', 1, 'id'])).toBeUndefined();
    // An index on an object or a name on an array finds nothing (no `length` or `0` key look-ups).
    expect(valueAt(body, ['data', 'length'])).toBeUndefined();
    expect(valueAt({ data: { 0: 'x' } }, ['data', 0])).toBeUndefined();
    expect(valueAt(undefined, ['data'])).toBeUndefined();
  });
});

describe('dependencyOrder', () => {
  const item = (requestId: string, ...waitFor: string[]) => ({ requestId, waitFor });

  it('puts each item after those it waits for, keeping the blueprint order otherwise', () => {
    expect(dependencyOrder([item('b', 'a'), item('c'), item('a')]).map((i) => i.requestId)).toEqual(['a', 'b', 'c']);
    expect(dependencyOrder([item('x'), item('y'), item('z', 'x', 'y')]).map((i) => i.requestId)).toEqual([
      'x',
      'y',
      'z',
    ]);
  });

  it('names the item that waits for an unknown one or sits on a cycle', () => {
    expect(() => dependencyOrder([item('a', 'nope')])).toThrow(DependencyError);
    const cycle = (() => {
      try {
        dependencyOrder([item('a', 'b'), item('b', 'c'), item('c', 'a')]);
      } catch (e) {
        return e as DependencyError;
      }
    })();
    expect(cycle?.message).toMatch(/cycle/);
    expect(['a', 'b', 'c']).toContain(cycle?.requestId);
  });
});
