/**
 * The disclosure auditor: what an outsider can work out about withheld figures from the published ones.
 *
 * Every figure the portal publishes is a sum of "atoms" (one metric of one month, or of one country in one month).
 * A published figure is therefore a linear equation over the atoms; atoms are pounds, so never negative. For each
 * withheld figure the auditor answers two questions:
 * - exact recovery: is the figure a linear combination of published equations? (Gaussian elimination: the figure's
 *   vector reduces to zero against a basis of the published rows);
 * - interval: how narrow are the bounds that the equations and non-negativity give? (bounds propagation over the
 *   equations, tightened by every published sum that contains the figure).
 * Atoms are identified by key and value (see `variableOf`), so that figures published before an amendment and after
 * it are about different unknowns when the amendment changed the atom, and about the same one when it did not.
 */

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
    return { key: e.key, determined, lo: Math.max(0, tLo), hi: tHi };
  });
}

/** Whether a sensitive figure is safe: not determined, and its derived interval reaches `share` of it on both sides. */
export function isProtected(f: Finding, value: number, share: number): boolean {
  if (f.determined) return false;
  return f.lo <= value * (1 - share) + EPS && f.hi >= value * (1 + share) - EPS;
}
