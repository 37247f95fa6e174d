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

type Item = { figure: Equation; earlier: boolean; withheld: boolean; sensitive: boolean; plan?: PlannedFigure };

/**
 * The published figures connected to a target through shared atoms: the only ones an attack on it can use.
 * Withheld figures connect nothing, so the part shrinks as figures are withheld.
 */
function connectedPublished(target: Equation, byAtom: ReadonlyMap<string, Item[]>): Item[] {
  const seenAtoms = new Set(target.atoms);
  const queue = [...target.atoms];
  const found = new Set<Item>();
  while (queue.length > 0) {
    for (const item of byAtom.get(queue.pop()!) ?? []) {
      if (item.withheld || found.has(item)) continue;
      found.add(item);
      for (const a of item.figure.atoms)
        if (!seenAtoms.has(a)) {
          seenAtoms.add(a);
          queue.push(a);
        }
    }
  }
  return [...found];
}

/**
 * The next figure to withhold for an exposed one, among this publication's published figures connected to it:
 * those that contain one of its atoms first; the smallest that is at least the protection margin, else the largest
 * (a small partner leaves the interval narrow).
 */
function nextComplement(connected: readonly Item[], exposed: Equation, rules: DisclosureRules): Item | undefined {
  const open = connected.filter((i) => !i.earlier);
  const atoms = new Set(exposed.atoms);
  const touching = open.filter((i) => i.figure.atoms.some((a) => atoms.has(a)));
  const pool = touching.length > 0 ? touching : open;
  if (pool.length === 0) return undefined;
  const margin = exposed.value * rules.protectionShare;
  const bySize = [...pool].sort((a, b) => a.figure.value - b.figure.value || a.figure.key.localeCompare(b.figure.key));
  return bySize.find((i) => i.figure.value >= margin && i.figure.value > 0) ?? bySize[bySize.length - 1];
}

/**
 * Which of the candidate figures to publish. Earlier figures stay as they were published; only candidates can be
 * withheld. Each sensitive figure is made safe in turn, withholding one more figure at a time until the auditor
 * can no longer unpick it; withholding never helps an attack, so a figure made safe stays safe. If the earlier
 * figures alone expose a sensitive one, every connected candidate ends up withheld (the fallback of suppressing whole
 * rows) and nothing more can help.
 */
export function planSuppression(
  candidates: readonly CandidateFigure[],
  earlier: readonly EarlierFigure[],
  rules: DisclosureRules,
): PlannedFigure[] {
  const planned: PlannedFigure[] = candidates.map((c) => ({ ...c, suppressed: c.primary }));
  const items: Item[] = [
    ...earlier.map((e) => ({ figure: e, earlier: true, withheld: e.withheld, sensitive: e.sensitive })),
    ...planned.map((p) => ({
      figure: p,
      earlier: false,
      withheld: p.suppressed !== null,
      sensitive: p.primary !== null,
      plan: p,
    })),
  ];
  const byAtom = new Map<string, Item[]>();
  for (const item of items) for (const a of new Set(item.figure.atoms)) byAtom.set(a, [...(byAtom.get(a) ?? []), item]);
  // The same sum of atoms is one target, however many figures print it.
  const targets = new Map<string, Equation>();
  for (const i of items)
    if (i.withheld && i.sensitive) targets.set([...new Set(i.figure.atoms)].sort().join('+'), i.figure);
  const all = [...targets.values()];
  const safe = new Set<Equation>();
  for (const target of all) {
    while (!safe.has(target)) {
      const connected = connectedPublished(target, byAtom);
      // Only this publication's figures can change anything; a target none of them reaches is as it was.
      if (!connected.some((i) => !i.earlier)) break;
      // Every target lying wholly in this part of the system is checked with the same elimination.
      const span = new Set(connected.flatMap((i) => i.figure.atoms));
      const group = [target, ...all.filter((t) => t !== target && !safe.has(t) && t.atoms.every((a) => span.has(a)))];
      const findings = audit(
        connected.map((i) => i.figure),
        group,
      );
      findings.forEach((f, n) => {
        if (isProtected(f, group[n].value, rules.protectionShare)) safe.add(group[n]);
      });
      if (safe.has(target)) break;
      const next = nextComplement(connected, target, rules);
      if (!next) break;
      next.withheld = true;
      next.plan!.suppressed = 'complementary';
    }
  }
  return planned;
}
