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
    [...earlierFigures(earlier), ...sensitiveFigures(candidates, watched, atoms, rules)],
    rules,
  );
  return planned.map((p, i) => ({
    key: p.key,
    value: p.value,
    atoms: candidates[i].atomValues,
    suppressed: p.suppressed,
  }));
}
