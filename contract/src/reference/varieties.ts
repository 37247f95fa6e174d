/**
 * The default list of improved pecan varieties for Form 1's receipts by variety (the draft marketing order's
 * examples, domain brief). Staff can extend the list, so the API accepts any variety name; this is only the
 * starting point and what the web app offers first. "Other" is always present, last.
 */
export const OTHER_VARIETY = 'Other';

export const DEFAULT_VARIETIES: readonly string[] = Object.freeze([
  'Desirable',
  'Stuart',
  'Pawnee',
  'Wichita',
  'Western Schley',
  'Eastern Schley',
  'Cape Fear',
  'Elliot',
  'Sumner',
  'Oconee',
  'Kiowa',
  'Mandan',
  'Cunard',
  'Forkert',
  'Caddo',
  'Choctaw',
  'Creek',
  'Lakota',
  'Success',
  'Moneymaker',
  'Mahan',
  'Candy',
  'Jackson',
  'Gloria Grande',
  'Amling',
  'Excel',
  'Avalon',
  'Byrd',
  'Zinner',
  OTHER_VARIETY,
]);

/** How two variety names are compared: trimmed, spaces collapsed, case ignored ("cape  fear" = "Cape Fear"). */
export function varietyKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * A variety list as offered to handlers: names trimmed, duplicates (by varietyKey) dropped keeping the first, and
 * "Other" moved to the end, added if missing.
 */
export function varietyListWithOther(names: readonly string[]): string[] {
  const seen = new Set<string>([varietyKey(OTHER_VARIETY)]);
  const result: string[] = [];
  for (const name of names.map((n) => n.trim().replace(/\s+/g, ' '))) {
    if (name === '' || seen.has(varietyKey(name))) continue;
    seen.add(varietyKey(name));
    result.push(name);
  }
  return [...result, OTHER_VARIETY];
}
