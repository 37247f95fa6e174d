import { describe, expect, it } from 'vitest';
import { currentOrNewestSeason, currentSeasonOf, type Season } from './seasons';

// Newest first, as the seasons read sorts them.
const season = (id: string, current: unknown): Season =>
  ({ id, type: 'node--season', field_current_season: current }) as Season;

describe('the current season', () => {
  const list = [season('2027', false), season('2026', true), season('2025', false)];

  it('is the one flagged current, not the newest', () => {
    expect(currentSeasonOf(list)?.id).toBe('2026');
    expect(currentOrNewestSeason(list)?.id).toBe('2026');
  });

  it('is none for the dashboard when no season is flagged, and the newest for pages that always show one', () => {
    const unflagged = list.map((s) => ({ ...s, field_current_season: false }));
    expect(currentSeasonOf(unflagged)).toBeNull();
    expect(currentOrNewestSeason(unflagged)?.id).toBe('2027');
  });

  it('takes only a true flag, not a truthy one', () => {
    expect(currentSeasonOf([season('2027', '1'), season('2026', true)])?.id).toBe('2026');
  });

  it('is none while the seasons are not read yet', () => {
    expect(currentSeasonOf(undefined)).toBeNull();
    expect(currentOrNewestSeason(undefined)).toBeNull();
    expect(currentOrNewestSeason([])).toBeNull();
  });
});
