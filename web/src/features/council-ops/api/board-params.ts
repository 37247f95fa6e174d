/**
 * What the submissions board page asks the server for: one page of handler lines. Apart from the page so that the
 * deadline benchmark (bench/deadline/sessions.ts) sends the very same request.
 */
// Types only: the benchmark runs this module under plain Node resolution, where the contract's subpaths are not.
import type { BoardStatus } from '@pecan/contract/api/council';
import type { BoardSort } from '@pecan/contract/api/council-requests';

export interface BoardChoice {
  /** A month's board (forms 1-3), or with `seasonId` instead the season's year-end board (form 5). */
  periodId?: string;
  seasonId?: string;
  status?: BoardStatus;
  /** Handler number or name, as typed. */
  q?: string;
  sort?: BoardSort;
  /** From 1. */
  page?: number;
}

/** The board's scope and status filter: what the CSV button exports (every handler line). */
export function boardScopeParams(choice: BoardChoice): Record<string, string | undefined> {
  return { period_id: choice.periodId, season_id: choice.seasonId, status: choice.status };
}

/** The page of the board in view: the server's page size when paged (BOARD_PAGE_SIZE handler lines). */
export function boardPageParams(choice: BoardChoice): Record<string, string | undefined> {
  return {
    ...boardScopeParams(choice),
    q: choice.q?.trim() || undefined,
    // Ascending is the server's order without sort: left out, the first page's address stays short.
    sort: choice.sort === '-handler_number' ? choice.sort : undefined,
    // Always given, so that the board is paged (without page and per_page it is every line).
    page: String(choice.page ?? 1),
  };
}
