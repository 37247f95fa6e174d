/**
 * The disclosure auditor: what an outsider can work out about withheld figures from the published ones.
 *
 * Every figure the portal publishes is a sum of "atoms" (one metric of one month, or of one country in one month).
 * A published figure is therefore a linear equation over the atoms; atoms are pounds, so never negative. For each
 * withheld figure the auditor answers two questions:
 * - exact recovery: is the figure a linear combination of published equations? (Gaussian elimination: the figure's
 *   vector reduces to zero against a basis of the published rows);
 * - interval: how narrow are the bounds that the equations and non-negativity give? The smallest and largest value
 *   the figure can take under them, as an attacker with a linear-programming solver finds them (two linear programs
 *   over the published figures connected to it, solved with YALPS); bounds propagation, tightened by every published
 *   sum that contains the figure, gives a first interval. A program the solver cannot finish counts as disclosure.
 * Atoms are identified by key and value (see `variableOf`), so that figures published before an amendment and after
 * it are about different unknowns when the amendment changed the atom, and about the same one when it did not.
 */

import { solve, type Coefficients } from 'yalps';

/** A published or withheld figure as the auditor sees it: a sum of atom variables and its true value. */
export interface Equation {
  key: string;
  /** Atom variables (see `variableOf`). */
  atoms: readonly string[];
  value: number;
}

export interface Finding {
  key: string;
  /** The figure follows exactly from the published ones. */
  determined: boolean;
  /** Bounds a reader can derive (hi may be Infinity). */
  lo: number;
  hi: number;
}

const EPS = 1e-7;

/** An atom as an unknown: its key and the value it had when a figure using it was computed. */
export function variableOf(atomKey: string, value: number): string {
  return `${atomKey}@${value}`;
}

type Row = Map<number, number>;

/** An incremental basis of published rows, each kept with its smallest variable as pivot. */
class Basis {
  private readonly rows = new Map<number, Row>();

  /** The vector reduced against the basis (pivots taken in increasing order, so this terminates). */
  reduce(vector: Row): Row {
    const v = new Map(vector);
    for (;;) {
      let pivot = -1;
      for (const [i, c] of v) {
        if (Math.abs(c) < EPS) {
          v.delete(i);
          continue;
        }
        if (this.rows.has(i) && (pivot < 0 || i < pivot)) pivot = i;
      }
      if (pivot < 0) return v;
      const row = this.rows.get(pivot)!;
      const factor = v.get(pivot)!;
      for (const [i, c] of row) v.set(i, (v.get(i) ?? 0) - factor * c);
      v.delete(pivot);
    }
  }

  add(vector: Row): void {
    const r = this.reduce(vector);
    if (r.size === 0) return;
    const pivot = Math.min(...r.keys());
    const p = r.get(pivot)!;
    const row: Row = new Map();
    for (const [i, c] of r) row.set(i, c / p);
    this.rows.set(pivot, row);
  }
}

/** Bounds of every atom from the published equations and non-negativity (a few rounds of propagation). */
function propagateBounds(
  published: readonly Equation[],
  index: Map<string, number>,
  size: number,
): { lo: Float64Array; hi: Float64Array } {
  const lo = new Float64Array(size);
  const hi = new Float64Array(size).fill(Infinity);
  const rows = published.map((e) => ({ vars: [...new Set(e.atoms)].map((a) => index.get(a)!), b: e.value }));
  for (let round = 0; round < 50; round += 1) {
    let changed = false;
    for (const { vars, b } of rows) {
      let sumLo = 0;
      let sumHi = 0;
      for (const v of vars) {
        sumLo += lo[v];
        sumHi += hi[v];
      }
      for (const v of vars) {
        const newHi = b - (sumLo - lo[v]);
        const newLo = sumHi === Infinity ? -Infinity : b - (sumHi - hi[v]);
        if (newHi < hi[v] - EPS) {
          hi[v] = newHi;
          changed = true;
        }
        if (newLo > lo[v] + EPS) {
          lo[v] = newLo;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return { lo, hi };
}

/** What a reader can derive about each withheld figure from the published ones. */
export function audit(published: readonly Equation[], withheld: readonly Equation[]): Finding[] {
  const index = new Map<string, number>();
  const idOf = (a: string) => {
    if (!index.has(a)) index.set(a, index.size);
    return index.get(a)!;
  };
  const vectorOf = (e: Equation): Row => {
    const row: Row = new Map();
    for (const a of new Set(e.atoms)) row.set(idOf(a), 1);
    return row;
  };
  const basis = new Basis();
  for (const e of published) basis.add(vectorOf(e));
  const targets = withheld.map((e) => ({ e, vector: vectorOf(e) }));
  const { lo, hi } = propagateBounds(published, index, index.size);
  return targets.map(({ e, vector }) => {
    const determined = basis.reduce(vector).size === 0;
    let tLo = 0;
    let tHi = 0;
    for (const v of vector.keys()) {
      tLo += lo[v];
      tHi += hi[v];
    }
    // A published sum that contains the whole figure bounds it by what the rest of that sum can be.
    const mine = new Set(e.atoms);
    for (const p of published) {
      const atoms = new Set(p.atoms);
      if (![...mine].every((a) => atoms.has(a))) continue;
      let restLo = 0;
      let restHi = 0;
      for (const a of atoms)
        if (!mine.has(a)) {
          restLo += lo[index.get(a)!];
          restHi += hi[index.get(a)!];
        }
      tHi = Math.min(tHi, p.value - restLo);
      tLo = Math.max(tLo, p.value - restHi);
    }
    if (!determined) {
      // A program the solver cannot finish counts as a disclosure: better one more figure withheld than one exposed.
      const exact = intervalByLp(connectedTo(e, published), e) ?? { lo: e.value, hi: e.value };
      tLo = Math.max(tLo, exact.lo);
      tHi = Math.min(tHi, exact.hi);
    }
    return { key: e.key, determined, lo: Math.max(0, tLo), hi: tHi };
  });
}

/** The published figures that share atoms with the target, directly or through other published figures. */
function connectedTo(target: Equation, published: readonly Equation[]): Equation[] {
  const atoms = new Set(target.atoms);
  const left = new Set(published);
  const found: Equation[] = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const p of left) {
      if (!p.atoms.some((a) => atoms.has(a))) continue;
      left.delete(p);
      found.push(p);
      for (const a of p.atoms) atoms.add(a);
      grew = true;
    }
  }
  return found;
}

/**
 * The interval an attacker's linear programs give a figure: the least and the greatest sum of its atoms under the
 * published equations, every atom at least 0. Null when the solver does not report an optimum (a numerical failure).
 */
function intervalByLp(published: readonly Equation[], target: Equation): { lo: number; hi: number } | null {
  const constraints = new Map<string, { equal: number }>();
  const variables = new Map<string, Map<string, number>>();
  published.forEach((e, n) => {
    constraints.set(`p${n}`, { equal: e.value });
    for (const a of new Set(e.atoms)) variables.set(a, (variables.get(a) ?? new Map()).set(`p${n}`, 1));
  });
  const mine = [...new Set(target.atoms)];
  // An atom no published figure holds can be as large as anyone likes.
  const unbounded = mine.some((a) => !variables.has(a));
  const held = mine.filter((a) => variables.has(a));
  if (held.length === 0) return { lo: 0, hi: Infinity };
  for (const a of held) variables.get(a)!.set('target', 1);
  const run = (direction: 'minimize' | 'maximize') =>
    solve({
      direction,
      objective: 'target',
      constraints,
      variables: variables as Map<string, Coefficients<string>>,
    });
  const low = run('minimize');
  if (low.status !== 'optimal') return null;
  if (unbounded) return { lo: low.result, hi: Infinity };
  const high = run('maximize');
  if (high.status === 'unbounded') return { lo: low.result, hi: Infinity };
  if (high.status !== 'optimal') return null;
  return { lo: low.result, hi: high.result };
}

/** Whether a sensitive figure is safe: not determined, and its derived interval reaches `share` of it on both sides. */
export function isProtected(f: Finding, value: number, share: number): boolean {
  if (f.determined) return false;
  return f.lo <= value * (1 - share) + EPS && f.hi >= value * (1 + share) - EPS;
}
