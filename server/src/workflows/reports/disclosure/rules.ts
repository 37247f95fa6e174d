/**
 * The primary rules of statistical disclosure control (7 CFR 986.81: no handler's information published, "nor any
 * total from which it could be derived"), with their parameters. See docs/DISCLOSURE-CONTROL.md.
 */

/** Fewest handlers whose non-zero figures a published total may be built from (the council's three-handler rule). */
export const MIN_CONTRIBUTING_HANDLERS = 3;

export interface DisclosureRules {
  /** Fewest contributing handlers of a published figure. */
  minHandlers: number;
  /** Dominance, the (1,k) rule: a figure is sensitive when one handler holds more than this share of it (0-1). */
  dominanceShare: number;
  /** Protection: a withheld sensitive figure must not be boxed by published figures closer than this share of it. */
  protectionShare: number;
}

export const DEFAULT_RULES: DisclosureRules = {
  minHandlers: MIN_CONTRIBUTING_HANDLERS,
  dominanceShare: 0.8,
  protectionShare: 0.1,
};

function percentFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback / 100;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 100)
    throw new Error(`${name} must be a percentage between 0 and 100, not ${JSON.stringify(raw)}.`);
  return n / 100;
}

/** The rules in force: DISCLOSURE_DOMINANCE_PERCENT and DISCLOSURE_PROTECTION_PERCENT override the defaults. */
export function rulesFromEnv(): DisclosureRules {
  return {
    minHandlers: MIN_CONTRIBUTING_HANDLERS,
    dominanceShare: percentFromEnv('DISCLOSURE_DOMINANCE_PERCENT', DEFAULT_RULES.dominanceShare * 100),
    protectionShare: percentFromEnv('DISCLOSURE_PROTECTION_PERCENT', DEFAULT_RULES.protectionShare * 100),
  };
}

/** Why a figure may not be published by itself. */
export type PrimaryReason = 'few-handlers' | 'dominance';

/**
 * The primary rules for a figure from its handlers' contributions. A figure no handler reported (all zero) is a true
 * zero and safe. Negative contributions (none on these forms) count by magnitude for dominance.
 */
export function primaryReason(
  contributions: ReadonlyMap<string, number>,
  rules: DisclosureRules,
): PrimaryReason | null {
  const nonZero = [...contributions.values()].filter((v) => v !== 0);
  if (nonZero.length === 0) return null;
  if (nonZero.length < rules.minHandlers) return 'few-handlers';
  const total = nonZero.reduce((s, v) => s + Math.abs(v), 0);
  const largest = Math.max(...nonZero.map(Math.abs));
  return largest > rules.dominanceShare * total ? 'dominance' : null;
}
