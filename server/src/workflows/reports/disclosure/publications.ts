import type { PortalDb } from '../../../db/portal-tables.js';
import { newId } from '../../../lib/time.js';
import { dbOf, nowIso, type Actor } from '../../common.js';
import { planPublication, type FrozenFigure } from './plan.js';
import { rulesFromEnv } from './rules.js';
import { loadSeasonAtoms } from './season-atoms.js';
import { monthFigures, seasonFigures, type FigureDefinition, type SeasonAtoms } from './season-model.js';

/**
 * Publications: a season's figures frozen when staff publish them (a month's position report, the annual report).
 * Everything that shows a published figure afterwards (the report's PDF, the analytics workbooks, the charts) reads
 * it from here, so a later amendment changes nothing published until staff publish a revision, which is planned
 * against every earlier publication of the season, superseded revisions included.
 */

export const SEASON_SCOPE = 'season';
export const monthScope = (month: string) => `month:${month}`;

export interface Publication {
  id: string;
  scope: string;
  revision: number;
  publishedAt: string;
  figures: FrozenFigure[];
}

/** Every publication of a season, oldest first. */
export async function seasonPublications(db: PortalDb, seasonId: string): Promise<Publication[]> {
  const rows = await db
    .selectFrom('disclosure_publications')
    .selectAll()
    .where('season_id', '=', seasonId)
    .orderBy('published_at')
    .orderBy('revision')
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    scope: String(r.scope),
    revision: Number(r.revision),
    publishedAt: String(r.published_at),
    figures: JSON.parse(String(r.figures)) as FrozenFigure[],
  }));
}

/** The publication in force for a scope: its latest revision. */
export function currentPublication(publications: readonly Publication[], scope: string): Publication | undefined {
  return publications.filter((p) => p.scope === scope).sort((a, b) => b.revision - a.revision)[0];
}

/** The months whose figures are published, in order. */
export function publishedMonths(publications: readonly Publication[]): string[] {
  return [...new Set(publications.filter((p) => p.scope.startsWith('month:')).map((p) => p.scope.slice(6)))].sort();
}

/** What a scope publishes, and what a later revision of any month published so far could (kept protected too). */
function definitionsOf(
  scope: string,
  months: readonly string[],
  atoms: SeasonAtoms,
  publications: readonly Publication[],
) {
  const month = scope === SEASON_SCOPE ? null : scope.slice('month:'.length);
  const defs: FigureDefinition[] = month ? monthFigures(month, months, atoms) : seasonFigures(months, atoms);
  const reach = month ? [month, ...publishedMonths(publications)].sort().at(-1)! : (months.at(-1) ?? '');
  const watched = months.filter((m) => m <= reach).flatMap((m) => monthFigures(m, months, atoms));
  return { defs, watched };
}

/** The figures a publication of the scope would have now (a preview: nothing stored). */
export async function plannedFigures(
  db: PortalDb,
  seasonId: string,
  months: readonly string[],
  scope: string,
): Promise<FrozenFigure[]> {
  const publications = await seasonPublications(db, seasonId);
  const atoms = await loadSeasonAtoms(db, seasonId, months);
  const { defs, watched } = definitionsOf(scope, months, atoms, publications);
  return planPublication(
    defs,
    atoms,
    publications.flatMap((p) => p.figures),
    rulesFromEnv(),
    watched,
  );
}

/**
 * Publishes a scope's figures: the first time, or as a new revision when `revise`; otherwise the publication in
 * force is returned unchanged (published figures are frozen).
 */
export async function publishFigures(
  a: Actor,
  seasonId: string,
  months: readonly string[],
  scope: string,
  revise = false,
): Promise<Publication> {
  const db = dbOf(a);
  const publications = await seasonPublications(db, seasonId);
  const current = currentPublication(publications, scope);
  if (current && !revise) return current;
  const figures = await plannedFigures(db, seasonId, months, scope);
  const publication: Publication = {
    id: newId(),
    scope,
    revision: (current?.revision ?? 0) + 1,
    publishedAt: nowIso(a),
    figures,
  };
  await db
    .insertInto('disclosure_publications')
    .values({
      id: publication.id,
      season_id: seasonId,
      scope,
      revision: publication.revision,
      published_at: publication.publishedAt,
      published_by: a.viewer.userId ?? null,
      figures: JSON.stringify(figures),
    })
    .execute();
  return publication;
}
