import { variableOf } from './auditor.js';
import type { DisclosureRules } from './rules.js';
import { candidateOf, type FigureDefinition, type SeasonAtoms } from './season-model.js';
import { planSuppression, type CandidateFigure, type EarlierFigure, type Suppression } from './suppression.js';

/**
 * A figure as frozen in a publication. `value` is the true sum even when withheld: the server keeps it (never
 * shows it) so that later publications can be checked against what this one protected. `atoms` holds each atom's
 * value at publication: an atom whose value changed since (an amendment) is a different unknown for the auditor.
 */
export interface FrozenFigure {
  key: string;
  value: number;
  atoms: Record<string, number>;
  suppressed: Suppression | null;
}

/** The earlier publications' figures as the planner takes them (superseded revisions included: they were public). */
export function earlierFigures(published: readonly FrozenFigure[]): EarlierFigure[] {
  return published.map((f) => ({
    key: f.key,
    value: f.value,
    withheld: f.suppressed !== null,
    sensitive: f.suppressed !== null && f.suppressed !== 'complementary',
    atoms: Object.entries(f.atoms).map(([a, v]) => variableOf(a, v)),
  }));
}

/**
 * Every atom the candidates use, and every figure a revision of an earlier month could print (`watched`), that fails
 * a primary rule, as a figure to protect even when this publication does not print it: an amendment can make an
 * earlier month's cell sensitive, and this publication's season-to-date figures must not give it away before (or
 * without) a revision of that month.
 */
function sensitiveFigures(
  candidates: readonly CandidateFigure[],
  watched: readonly FigureDefinition[],
  atoms: SeasonAtoms,
  rules: DisclosureRules,
): EarlierFigure[] {
  const keys = new Set(candidates.flatMap((c) => c.atoms.map((v) => v.slice(0, v.lastIndexOf('@')))));
  const defs = [
    ...[...keys].map((a) => ({ key: `atom:${a}`, atoms: [a] })),
    ...watched.map((d) => ({ ...d, key: `watched:${d.key}` })),
  ];
  return defs
    .map((d) => candidateOf(d, atoms, rules))
    .filter((c) => c.primary !== null)
    .map((c) => ({ key: c.key, atoms: c.atoms, value: c.value, withheld: true, sensitive: true }));
}

/** A published (or publishable) sum: its key and its atom variables, each once. */
interface Sum {
  key: string;
  vars: string[];
}

const atomKeyOf = (variable: string) => variable.slice(0, variable.lastIndexOf('@'));

/**
 * Differences of nested sums: a reader who has two published figures, one of whose atoms hold all of the other's, has
 * their difference too (November's season to date less September is October and November together, which may be two
 * handlers' figures though each sum is three or more). Such a difference fails or passes the primary rules like any
 * figure, and one that fails is protected as a sensitive figure, though no publication prints it. Pairs with a
 * candidate of this publication are checked, over the atoms as they are now (an earlier figure of an amended atom's
 * old value is about another unknown, whose contributions are no longer kept).
 */
function nestedDifferences(
  candidates: readonly CandidateFigure[],
  earlier: readonly FrozenFigure[],
  atoms: SeasonAtoms,
  rules: DisclosureRules,
): EarlierFigure[] {
  const current = new Set(candidates.flatMap((c) => c.atoms));
  const sumOf = (key: string, vars: readonly string[]): Sum => ({ key, vars: [...new Set(vars)] });
  const isCurrent = (sum: Sum) => sum.vars.length > 0 && sum.vars.every((v) => current.has(v));
  const fresh = candidates.filter((c) => c.primary === null).map((c) => sumOf(c.key, c.atoms));
  const old = earlier
    .filter((f) => f.suppressed === null)
    .map((f) =>
      sumOf(
        f.key,
        Object.entries(f.atoms).map(([a, v]) => variableOf(a, v)),
      ),
    );
  const sums = [...fresh.filter(isCurrent), ...old.filter(isCurrent)];
  const isFresh = new Set(fresh);
  const byFirst = new Map<string, Sum[]>();
  for (const sum of sums) {
    const list = byFirst.get(sum.vars[0]);
    if (list) list.push(sum);
    else byFirst.set(sum.vars[0], [sum]);
  }
  const found = new Map<string, EarlierFigure>();
  for (const big of sums) {
    const inBig = new Set(big.vars);
    for (const v of big.vars)
      for (const small of byFirst.get(v) ?? []) {
        if (small.vars.length >= big.vars.length || !(isFresh.has(big) || isFresh.has(small))) continue;
        if (!small.vars.every((x) => inBig.has(x))) continue;
        const inSmall = new Set(small.vars);
        const rest = big.vars.filter((x) => !inSmall.has(x));
        const id = [...rest].sort().join('+');
        if (found.has(id)) continue;
        const c = candidateOf({ key: `difference:${big.key}-${small.key}`, atoms: rest.map(atomKeyOf) }, atoms, rules);
        if (c.primary !== null)
          found.set(id, { key: c.key, atoms: c.atoms, value: c.value, withheld: true, sensitive: true });
      }
  }
  return [...found.values()];
}

/** The figures of a new publication with primary and complementary suppression against everything published before. */
export function planPublication(
  defs: readonly FigureDefinition[],
  atoms: SeasonAtoms,
  earlier: readonly FrozenFigure[],
  rules: DisclosureRules,
  watched: readonly FigureDefinition[] = [],
): FrozenFigure[] {
  const candidates = defs.map((d) => candidateOf(d, atoms, rules));
  const planned = planSuppression(
    candidates,
    [
      ...earlierFigures(earlier),
      ...sensitiveFigures(candidates, watched, atoms, rules),
      ...nestedDifferences(candidates, earlier, atoms, rules),
    ],
    rules,
  );
  return planned.map((p, i) => ({
    key: p.key,
    value: p.value,
    atoms: candidates[i].atomValues,
    suppressed: p.suppressed,
  }));
}
