import { describe, expect, it } from 'vitest';
import { MIN_CONTRIBUTING_HANDLERS, publishFigure } from './confidentiality.js';

describe('publishFigure (7 CFR 986.81)', () => {
  it('withholds a figure drawn from one or two handlers', () => {
    expect(MIN_CONTRIBUTING_HANDLERS).toBe(3);
    expect(publishFigure({ value: 1200, handlerCount: 1 })).toEqual({
      value: null,
      withheld: true,
      handlerCount: 1,
      suppression: 'primary',
    });
    expect(publishFigure({ value: 1200, handlerCount: 2 })).toEqual({
      value: null,
      withheld: true,
      handlerCount: 2,
      suppression: 'primary',
    });
  });

  it('publishes a figure drawn from three or more handlers', () => {
    expect(publishFigure({ value: 1200, handlerCount: 3 })).toEqual({ value: 1200, withheld: false, handlerCount: 3 });
    expect(publishFigure({ value: 99, handlerCount: 40 })).toEqual({ value: 99, withheld: false, handlerCount: 40 });
  });

  it('publishes a zero nobody contributed to, and treats a missing aggregate as that zero', () => {
    expect(publishFigure({ value: 0, handlerCount: 0 })).toEqual({ value: 0, withheld: false, handlerCount: 0 });
    expect(publishFigure(undefined)).toEqual({ value: 0, withheld: false, handlerCount: 0 });
  });
});
