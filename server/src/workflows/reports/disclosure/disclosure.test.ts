import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { planPublication, type FrozenFigure } from './plan.js';
import { audit, isProtected, type Equation } from './auditor.js';
import { expectNothingNewlyRecoverable, expectNothingRecoverable, readerView } from './test-auditor.js';
import { DEFAULT_RULES, primaryReason, rulesFromEnv } from './rules.js';
import {
  EXPORT_KINDS,
  f1Atom,
  f2Atom,
  exportAtom,
  f5Atom,
  figureKeys,
  FLOW_METRICS,
  FOREIGN_METRICS,
  monthFigures,
  seasonFigures,
  STOCK_METRICS,
  YEAR_END_METRICS,
  type FigureDefinition,
  type SeasonAtoms,
} from './season-model.js';

const rules = DEFAULT_RULES;
const MONTHS = ['2025-09', '2025-10', '2025-11'];

/** A season in which every cell has three handlers of equal size (nothing sensitive) unless changed. */
function plainSeason(): SeasonAtoms {
  const atoms: SeasonAtoms = new Map();
  const three = (v: number) =>
    new Map([
      ['A', v],
      ['B', v],
      ['C', v],
    ]);
  for (const month of MONTHS) {
    for (const m of [...FLOW_METRICS, ...STOCK_METRICS]) atoms.set(f1Atom(m, month), three(100));
    for (const m of FOREIGN_METRICS) atoms.set(f2Atom(m, month), three(50));
    for (const k of EXPORT_KINDS) for (const c of ['CA', 'MX', 'VN']) atoms.set(exportAtom(k, c, month), three(40));
  }
  for (const m of YEAR_END_METRICS) atoms.set(f5Atom(m), three(70));
  return atoms;
}

function publishSeason(atoms: SeasonAtoms, months = MONTHS): FrozenFigure[] {
  const frozen: FrozenFigure[] = [];
  for (const month of months)
    frozen.push(...planPublication(monthFigures(month, MONTHS, atoms), atoms, frozen, rules, watched(month, atoms)));
  return frozen;
}

/** Every figure of the months so far: what a revision could print. */
const watched = (upTo: string, atoms: SeasonAtoms) =>
  MONTHS.filter((m) => m <= upTo).flatMap((m) => monthFigures(m, MONTHS, atoms));

const byKey = (frozen: FrozenFigure[], key: string) => frozen.filter((f) => f.key === key).at(-1)!;

describe('primary rules', () => {
  it('withholds a figure of one or two handlers, or one dominated by a single handler', () => {
    expect(
      primaryReason(
        new Map([
          ['A', 5],
          ['B', 9],
        ]),
        rules,
      ),
    ).toBe('few-handlers');
    // 81 of 100 pounds from one handler: above the 80 % dominance share.
    expect(
      primaryReason(
        new Map([
          ['A', 81],
          ['B', 10],
          ['C', 9],
        ]),
        rules,
      ),
    ).toBe('dominance');
    // 80 of 100 is not above it.
    expect(
      primaryReason(
        new Map([
          ['A', 80],
          ['B', 10],
          ['C', 10],
        ]),
        rules,
      ),
    ).toBeNull();
    expect(
      primaryReason(
        new Map([
          ['A', 0],
          ['B', 0],
        ]),
        rules,
      ),
    ).toBeNull();
  });

  it('takes its shares from the environment as percentages, and refuses nonsense', () => {
    expect(rulesFromEnv()).toEqual({ minHandlers: 3, dominanceShare: 0.8, protectionShare: 0.1 });
    vi.stubEnv('DISCLOSURE_DOMINANCE_PERCENT', '60');
    vi.stubEnv('DISCLOSURE_PROTECTION_PERCENT', '25');
    try {
      expect(rulesFromEnv()).toEqual({ minHandlers: 3, dominanceShare: 0.6, protectionShare: 0.25 });
      vi.stubEnv('DISCLOSURE_DOMINANCE_PERCENT', '180');
      expect(() => rulesFromEnv()).toThrow(/DISCLOSURE_DOMINANCE_PERCENT must be a percentage/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('complementary suppression against the findings of issue 33', () => {
  it("October's native receipts from one handler cannot be had from the seasons-to-date", () => {
    const atoms = plainSeason();
    atoms.set(f1Atom('receipts_native', '2025-10'), new Map([['A', 1234]]));
    const frozen = publishSeason(atoms);
    expect(byKey(frozen, f1Atom('receipts_native', '2025-10')).suppressed).toBe('few-handlers');
    // Without complements: October's season to date (100*3*1 + 1234) minus September's (300) would give 1234.
    expect(frozen.some((f) => f.suppressed === 'complementary')).toBe(true);
    expectNothingRecoverable(frozen, rules);
  });

  it("the annual report's season total minus the published months gives nothing withheld", () => {
    const atoms = plainSeason();
    atoms.set(f1Atom('receipts_native', '2025-10'), new Map([['A', 1234]]));
    const frozen = publishSeason(atoms);
    frozen.push(...planPublication(seasonFigures(MONTHS, atoms), atoms, frozen, rules, watched(MONTHS[2], atoms)));
    // Season total 300 + 1234 + 300 less September's 300 and November's 300 would be October's 1234.
    expectNothingRecoverable(frozen, rules);
  });

  it("the month's export total minus the published countries gives no one handler's exports to a country", () => {
    const atoms = plainSeason();
    atoms.set(exportAtom('inshell_lb', 'VN', '2025-09'), new Map([['B', 777]]));
    const frozen = publishSeason(atoms, ['2025-09']);
    expect(byKey(frozen, exportAtom('inshell_lb', 'VN', '2025-09')).suppressed).toBe('few-handlers');
    // Total 40*3*2 + 777 = 1017 less Canada's and Mexico's 120 each would give 777.
    expect(byKey(frozen, figureKeys.exportTotal('inshell_lb', '2025-09')).suppressed).not.toBeNull();
    expectNothingRecoverable(frozen, rules);
  });

  it('a dominated figure is protected by an interval, not only against exact recovery', () => {
    const atoms = plainSeason();
    atoms.set(
      f1Atom('shipments_shelled', '2025-09'),
      new Map([
        ['A', 900],
        ['B', 50],
        ['C', 50],
      ]),
    );
    const frozen = publishSeason(atoms, ['2025-09']);
    expect(byKey(frozen, f1Atom('shipments_shelled', '2025-09')).suppressed).toBe('dominance');
    expectNothingRecoverable(frozen, rules);
  });

  it('a revision after an amendment is checked against the earlier publication', () => {
    const atoms = plainSeason();
    atoms.set(
      f1Atom('receipts_native', '2025-09'),
      new Map([
        ['A', 100],
        ['B', 100],
        ['C', 100],
        ['D', 100],
      ]),
    );
    const frozen = publishSeason(atoms, ['2025-09']);
    expect(byKey(frozen, f1Atom('receipts_native', '2025-09')).suppressed).toBeNull();
    // Handler D amends September to nothing: three handlers remain, so the revised figure is published (300), and
    // the September figure of the first publication (400) stays as it was.
    atoms.set(
      f1Atom('receipts_native', '2025-09'),
      new Map([
        ['A', 100],
        ['B', 100],
        ['C', 100],
      ]),
    );
    atoms.set(f1Atom('receipts_improved', '2025-09'), new Map([['A', 5000]]));
    frozen.push(
      ...planPublication(monthFigures('2025-09', MONTHS, atoms), atoms, frozen, rules, watched('2025-09', atoms)),
    );
    expect(frozen.filter((f) => f.key === f1Atom('receipts_native', '2025-09')).map((f) => f.value)).toEqual([
      400, 300,
    ]);
    expect(byKey(frozen, f1Atom('receipts_improved', '2025-09')).suppressed).toBe('few-handlers');
    expectNothingRecoverable(frozen, rules);
  });
});

describe('found by the generated seasons (regressions)', () => {
  const mx = (month: string) => exportAtom('inshell_lb', 'MX', month);
  const publishMonths = (atoms: SeasonAtoms) => {
    const publications: FrozenFigure[][] = [];
    for (const month of MONTHS)
      publications.push(
        planPublication(monthFigures(month, MONTHS, atoms), atoms, publications.flat(), rules, watched(month, atoms)),
      );
    return publications;
  };
  const published = (frozen: FrozenFigure[]) => readerView(frozen).published;

  it('protects a difference of nested sums: November to date less September is two handlers', () => {
    // September: three handlers, 1 lb each (published); October one handler, November another (withheld). November's
    // season to date has four handlers and no dominant one, but less September it is October and November: 924 lb of
    // two handlers, from which either one has the other's figure.
    const atoms: SeasonAtoms = new Map([
      [
        mx('2025-09'),
        new Map([
          ['H0', 1],
          ['H1', 1],
          ['H2', 1],
        ]),
      ],
      [mx('2025-10'), new Map([['H4', 741]])],
      [mx('2025-11'), new Map([['H0', 183]])],
    ]);
    const frozen = publishMonths(atoms).flat();
    expect(byKey(frozen, 'std:x.inshell_lb.MX:2025-11').suppressed).toBe('complementary');
    const octoberAndNovember = { key: 'oct+nov', atoms: [`${mx('2025-10')}@741`, `${mx('2025-11')}@183`], value: 924 };
    const [found] = audit(published(frozen), [octoberAndNovember]);
    expect(isProtected(found, 924, rules.protectionShare)).toBe(true);
    expectNothingRecoverable(frozen, rules);
  });

  it('cannot take back a month published before its season to date turned sensitive (a documented limit)', () => {
    // September, 9,163 lb of three handlers, none dominant, is published. October adds 963 lb of the largest one:
    // October's season to date (10,126) is now dominated (80.003 %) and withheld with every October figure, but
    // September alone puts it at 9,163 or more, within 10 %. Nothing October withholds can change that.
    const shelled = (month: string) => exportAtom('shelled_lb', 'MX', month);
    const atoms: SeasonAtoms = new Map([
      [
        shelled('2025-09'),
        new Map([
          ['H5', 7138],
          ['H0', 2015],
          ['H1', 10],
        ]),
      ],
      [shelled('2025-10'), new Map([['H5', 963]])],
    ]);
    const [september, october] = publishMonths(atoms);
    const seasonToDate = byKey(october, 'std:x.shelled_lb.MX:2025-10');
    expect(seasonToDate.suppressed).toBe('dominance');
    expect(october.filter((f) => f.atoms[shelled('2025-10')] !== undefined).every((f) => f.suppressed)).toBe(true);
    const [fromSeptember] = readerView([seasonToDate]).sensitive.map((s) => audit(published(september), [s])[0]);
    expect(fromSeptember.lo).toBe(9163);
    expectNothingNewlyRecoverable(publishMonths(atoms), rules);
  });
});

/** A cell: 0-6 handlers (of six) with their pounds. */
const cell = fc
  .array(fc.record({ h: fc.integer({ min: 0, max: 5 }), v: fc.integer({ min: 1, max: 5000 }) }), {
    minLength: 0,
    maxLength: 6,
  })
  .map((parts) => {
    const m = new Map<string, number>();
    for (const { h, v } of parts) m.set(`H${h}`, (m.get(`H${h}`) ?? 0) + v);
    return m;
  });

const atomKeys = (() => {
  const keys: string[] = [];
  for (const month of MONTHS) {
    for (const m of [...FLOW_METRICS, ...STOCK_METRICS]) keys.push(f1Atom(m, month));
    for (const m of FOREIGN_METRICS) keys.push(f2Atom(m, month));
    for (const k of EXPORT_KINDS) for (const c of ['CA', 'MX']) keys.push(exportAtom(k, c, month));
  }
  for (const m of YEAR_END_METRICS) keys.push(f5Atom(m));
  return keys;
})();

describe('the auditor as an attacker with a linear-programming solver', () => {
  it('narrows a withheld month by combining published sums, as bounds one equation at a time do not', () => {
    // Withheld: September, 25 lb. Published: September to December 54, November and December 20, October and
    // November 28. Then September + October = 54 - 20 = 34; October = 28 - November, and November <= 20, so
    // October is 8 to 28 and September 6 to 26. Bounds taken one equation at a time only give 0 to 46.
    const published: Equation[] = [
      { key: 'sep-dec', atoms: ['sep', 'oct', 'nov', 'dec'], value: 54 },
      { key: 'nov-dec', atoms: ['nov', 'dec'], value: 20 },
      { key: 'oct-nov', atoms: ['oct', 'nov'], value: 28 },
    ];
    const september = { key: 'sep', atoms: ['sep'], value: 25 };
    const [found] = audit(published, [september]);
    expect(found.determined).toBe(false);
    expect([found.lo, found.hi].map((v) => Math.round(v * 1000) / 1000)).toEqual([6, 26]);
    // 26 is within 10 % above 25 (27.5): the month is not protected.
    expect(isProtected(found, september.value, 0.1)).toBe(false);
  });
});

describe('the auditor over generated seasons', () => {
  it('recovers no withheld figure from everything published, amendments and revisions included', () => {
    fc.assert(
      fc.property(
        fc.array(cell, { minLength: atomKeys.length, maxLength: atomKeys.length }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: atomKeys.length - 1 }), cell), { maxLength: 4 }),
        (cells, amendments) => {
          const atoms: SeasonAtoms = new Map(atomKeys.map((k, i) => [k, cells[i]]));
          const publications: FrozenFigure[][] = [];
          const publish = (defs: FigureDefinition[], upTo: string) =>
            publications.push(planPublication(defs, atoms, publications.flat(), rules, watched(upTo, atoms)));
          for (const [i, month] of MONTHS.entries()) {
            publish(monthFigures(month, MONTHS, atoms), month);
            // Amendments between publications, then a revision of the first month.
            const [index, replaced] = amendments[i] ?? [];
            if (index !== undefined && replaced) atoms.set(atomKeys[index], replaced);
          }
          publish(monthFigures(MONTHS[0], MONTHS, atoms), MONTHS[2]);
          publish(seasonFigures(MONTHS, atoms), MONTHS[2]);
          expectNothingNewlyRecoverable(publications, rules);
        },
      ),
      { numRuns: 40 },
    );
  });
});
