/**
 * Test support: the disclosure auditor as a reader would run it over every figure published for a season (all
 * publications, superseded revisions included). Exact recovery is checked with its own dense elimination, apart from
 * the planner's; intervals with the auditor's bounds.
 */
import { expect } from 'vitest';
import { audit, isProtected, variableOf, type Equation } from './auditor.js';
import type { FrozenFigure } from './plan.js';
import type { DisclosureRules } from './rules.js';

/**
 * The test's own exact-recovery check, independent of the auditor's sparse elimination: a withheld figure is
 * determined exactly when adding its row to the published rows does not raise the rank (dense Gaussian elimination).
 */
function rank(rows: number[][]): number {
  const m = rows.map((r) => [...r]);
  let r = 0;
  for (let c = 0; c < (m[0]?.length ?? 0) && r < m.length; c += 1) {
    let p = r;
    for (let i = r + 1; i < m.length; i += 1) if (Math.abs(m[i][c]) > Math.abs(m[p][c])) p = i;
    if (Math.abs(m[p][c]) < 1e-9) continue;
    [m[r], m[p]] = [m[p], m[r]];
    for (let i = 0; i < m.length; i += 1) {
      if (i === r) continue;
      const f = m[i][c] / m[r][c];
      if (f !== 0) for (let k = c; k < m[i].length; k += 1) m[i][k] -= f * m[r][k];
    }
    r += 1;
  }
  return r;
}

function recoverable(published: Equation[], target: Equation): boolean {
  const relevant = new Set(target.atoms);
  // Only published rows connected to the target matter; grow the set of variables until it stops changing.
  let rows: Equation[] = [];
  for (let grew = true; grew;) {
    grew = false;
    rows = published.filter((p) => p.atoms.some((a) => relevant.has(a)));
    for (const p of rows)
      for (const a of p.atoms)
        if (!relevant.has(a)) {
          relevant.add(a);
          grew = true;
        }
  }
  const vars = [...relevant];
  const vec = (e: Equation) => vars.map((v) => (e.atoms.includes(v) ? 1 : 0));
  const base = rows.map(vec);
  return rank([...base, vec(target)]) === rank(base);
}

/** Every figure published for the season, as the test's reader sees them, and the sensitive withheld ones. */
export function readerView(frozen: readonly FrozenFigure[]) {
  const eq = (f: FrozenFigure): Equation => ({
    key: f.key,
    value: f.value,
    atoms: Object.entries(f.atoms).map(([a, v]) => variableOf(a, v)),
  });
  return {
    published: frozen.filter((f) => f.suppressed === null).map(eq),
    sensitive: frozen.filter((f) => f.suppressed !== null && f.suppressed !== 'complementary').map(eq),
  };
}

/** Asserts that no sensitive figure comes back, exactly or within the protection interval. */
export function expectNothingRecoverable(frozen: readonly FrozenFigure[], rules: DisclosureRules): void {
  const { published, sensitive } = readerView(frozen);
  for (const s of sensitive) expect(recoverable(published, s), `${s.key} recovered exactly`).toBe(false);
  const findings = audit(published, sensitive);
  findings.forEach((f, i) =>
    expect(
      isProtected(f, sensitive[i].value, rules.protectionShare),
      `${f.key} boxed in [${f.lo}, ${f.hi}] around ${sensitive[i].value}`,
    ).toBe(true),
  );
}

/**
 * The same, publication by publication, over everything published for the season, but for a sensitive figure that
 * the publications before its own already box: no later publication can take back what an earlier one published (a
 * season to date that turns sensitive in October, its September already public: docs/DISCLOSURE-CONTROL.md,
 * "Limits"). Such a figure is left out; every other must stay protected to the end.
 */
export function expectNothingNewlyRecoverable(publications: readonly FrozenFigure[][], rules: DisclosureRules): void {
  const everything = readerView(publications.flat()).published;
  publications.forEach((publication, n) => {
    const before = readerView(publications.slice(0, n).flat()).published;
    for (const s of readerView(publication).sensitive) {
      const [early] = audit(before, [s]);
      if (recoverable(before, s) || !isProtected(early, s.value, rules.protectionShare)) continue;
      expect(recoverable(everything, s), `${s.key} recovered exactly`).toBe(false);
      const [f] = audit(everything, [s]);
      expect(
        isProtected(f, s.value, rules.protectionShare),
        `${f.key} boxed in [${f.lo}, ${f.hi}] around ${s.value}`,
      ).toBe(true);
    }
  });
}
