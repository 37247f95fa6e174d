/**
 * The seasons query. Apart from seasons.ts (which holds hooks and the fetch client) so that the benchmark
 * (bench/run.ts) sends the very same request.
 */
import { DrupalJsonApiParams } from '../jsonapi/params';

/** All seasons, newest start first: the query of the seasons list, wherever it is read (the sign-in's batch too). */
export function seasonsParams() {
  return new DrupalJsonApiParams().addSort('field_season_start_date', 'DESC');
}
