import type { PublishedFigure } from '../confidentiality.js';
import type { FrozenFigure } from './plan.js';

/**
 * Published figures by key, as the documents print them: a withheld figure carries no value (and says why, primary
 * or complementary suppression); a key the publication lacks (a country nobody exported to that month) has no data.
 */
export class PublishedBook {
  private readonly byKey: Map<string, FrozenFigure>;

  constructor(figures: readonly FrozenFigure[]) {
    this.byKey = new Map(figures.map((f) => [f.key, f]));
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  figure(key: string): PublishedFigure {
    const f = this.byKey.get(key);
    if (!f) return { value: null, withheld: false, handlerCount: 0 };
    if (f.suppressed === null) return { value: f.value, withheld: false, handlerCount: 0 };
    return {
      value: null,
      withheld: true,
      handlerCount: 0,
      suppression: f.suppressed === 'complementary' ? 'complementary' : 'primary',
    };
  }

  /**
   * The countries the publication lists for an export series prefix (`std:x.inshell_lb.` or `season:x.inshell_lb.`).
   */
  countries(prefix: string, suffix = ''): string[] {
    return [...this.byKey.keys()]
      .filter((k) => k.startsWith(prefix) && k.endsWith(suffix))
      .map((k) => k.slice(prefix.length, k.length - suffix.length))
      .sort();
  }
}
