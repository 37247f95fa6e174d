import { audit, isProtected, type Equation } from './auditor.js';
import type { DisclosureRules, PrimaryReason } from './rules.js';

/**
 * Complementary cell suppression (as tau-ARGUS and sdcTable do it, greedily): after the primary rules withhold the
 * sensitive figures, more figures are withheld until the auditor can recover none of the sensitive ones, exactly or
 * within the protection interval, from everything published (this publication and every earlier one of the season).
 */

/** A figure about to be published: a sum of atom variables, its value, and the primary rule it fails, if any. */
export interface CandidateFigure extends Equation {
  primary: PrimaryReason | null;
}

/** A figure as published earlier (frozen): withheld or not, and whether it was sensitive. */
export interface EarlierFigure extends Equation {
  withheld: boolean;
  sensitive: boolean;
}

export type Suppression = PrimaryReason | 'complementary';

export interface PlannedFigure extends CandidateFigure {
  /** Why the figure is withheld; null when it is published. */
  suppressed: Suppression | null;
}

/** Groups figures that share atoms, directly or through others: suppressions in one group never matter to another. */
function components<T extends Equation>(figures: readonly T[]): T[][] {
  const parent = new Map<string, string>();
  const find = (a: string): string => {
    let r = a;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(a, r);
    return r;
  };
  for (const f of figures) for (const a of f.atoms) if (!parent.has(a)) parent.set(a, a);
  for (const f of figures) for (const a of f.atoms.slice(1)) parent.set(find(a), find(f.atoms[0]));
  const groups = new Map<string, T[]>();
  for (const f of figures) {
    const root = f.atoms.length > 0 ? find(f.atoms[0]) : `empty:${f.key}`;
    if (!groups.has(root)) groups.set(root, []);
    groups.get(root)!.push(f);
  }
  return [...groups.values()];
}

type Item = { figure: Equation; earlier: boolean; withheld: boolean; sensitive: boolean; plan?: PlannedFigure };

/** The sensitive figures of a group that the auditor can still unpick, first one first. */
function firstExposed(items: readonly Item[], rules: DisclosureRules): Item | undefined {
  const published = items.filter((i) => !i.withheld).map((i) => i.figure);
  const sensitive = items.filter((i) => i.withheld && i.sensitive);
  if (sensitive.length === 0) return undefined;
  const findings = audit(published, sensitive.map((i) => i.figure));
  const index = findings.findIndex((f, n) => !isProtected(f, sensitive[n].figure.value, rules.protectionShare));
  return index < 0 ? undefined : sensitive[index];
}

/**
 * The next figure to withhold for an exposed one: among this publication's published figures, those that contain
 * one of its atoms first, then any of its group; the smallest that is at least the protection margin, else the
 * largest (a small partner leaves the interval narrow).
 */
function nextComplement(items: readonly Item[], exposed: Item, rules: DisclosureRules): Item | undefined {
  const open = items.filter((i) => !i.earlier && !i.withheld);
  const atoms = new Set(exposed.figure.atoms);
  const touching = open.filter((i) => i.figure.atoms.some((a) => atoms.has(a)));
  const pool = touching.length > 0 ? touching : open;
  if (pool.length === 0) return undefined;
  const margin = exposed.figure.value * rules.protectionShare;
  const bySize = [...pool].sort((a, b) => a.figure.value - b.figure.value || a.figure.key.localeCompare(b.figure.key));
  return bySize.find((i) => i.figure.value >= margin && i.figure.value > 0) ?? bySize[bySize.length - 1];
}

/**
 * Which of the candidate figures to publish. Earlier figures stay as they were published; only candidates can be
 * withheld. If the earlier figures alone expose a sensitive one, nothing more can help: the group's candidates are
 * all withheld (the fallback of suppressing whole tables).
 */
export function planSuppression(candidates: readonly CandidateFigure[], earlier: readonly EarlierFigure[], rules: DisclosureRules): PlannedFigure[] {
  const planned: PlannedFigure[] = candidates.map((c) => ({ ...c, suppressed: c.primary }));
  const items: Item[] = [
    ...earlier.map((e) => ({ figure: e, earlier: true, withheld: e.withheld, sensitive: e.sensitive })),
    ...planned.map((p) => ({ figure: p, earlier: false, withheld: p.suppressed !== null, sensitive: p.primary !== null, plan: p })),
  ];
  const byFigure = new Map<Equation, Item>(items.map((i) => [i.figure, i]));
  for (const group of components(items.map((i) => i.figure))) {
    const groupItems = group.map((f) => byFigure.get(f)!);
    if (!groupItems.some((i) => !i.earlier)) continue;
    for (let exposed = firstExposed(groupItems, rules); exposed; exposed = firstExposed(groupItems, rules)) {
      const next = nextComplement(groupItems, exposed, rules);
      if (!next) break;
      next.withheld = true;
      next.plan!.suppressed = 'complementary';
    }
  }
  return planned;
}
