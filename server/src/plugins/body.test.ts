import { describe, expect, it } from 'vitest';
import { nestingDepth } from './body.js';

describe('nestingDepth', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(nestingDepth('1')).toBe(0);
    expect(nestingDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(nestingDepth('{"a":"[[[{{{"}')).toBe(1);
    expect(nestingDepth('{"a":"\\\\","b":[[]]}')).toBe(3);
    expect(nestingDepth('{"a":"\\"[[[[","b":[]}')).toBe(2);
    expect(nestingDepth(`${'['.repeat(1000)}${']'.repeat(1000)}`)).toBe(1000);
  });
});
