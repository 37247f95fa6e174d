/**
 * Subrequests' dependencies: an item may wait for others (`waitFor`) and take a value out of their answers with a
 * replacement token in its uri, `{{<requestId>.body@<JSONPath>}}`, as Drupal's Subrequests module spells it. The
 * web app uses it to read the user and, in the same batch, the reads that need the user's handler id.
 *
 * JSONPath here is the subset that names one value: `$` then `.name`, `['name']` or `[index]` steps. Drupal's module
 * also fans a subrequest out over every value a wildcard finds; we do not: a token yields one value or the item fails
 * (424), and no general JSONPath engine (whose script expressions are a known way in) reads the answers.
 */

export type PathStep = string | number;

/** A token found in a uri: its text, the item it reads and the path of the value in that item's body. */
export interface ReplacementToken {
  text: string;
  requestId: string;
  path: PathStep[];
}

const TOKEN = /\{\{([^{}]+?)\.body@([^{}]+)\}\}/g;
const STEP = /^(?:\.([A-Za-z0-9_-]+)|\['([^'\]]*)'\]|\[(\d{1,6})\])/;

/** The steps of a JSONPath of the supported subset, or null when it is not one. */
export function parsePath(path: string): PathStep[] | null {
  if (!path.startsWith('$')) return null;
  const steps: PathStep[] = [];
  let rest = path.slice(1);
  while (rest !== '') {
    const m = STEP.exec(rest);
    if (!m) return null;
    steps.push(m[3] !== undefined ? Number(m[3]) : (m[1] ?? m[2]));
    rest = rest.slice(m[0].length);
  }
  return steps;
}

/** The replacement tokens of a uri; throws a message naming the first one whose path is not supported. */
export function findTokens(uri: string): ReplacementToken[] {
  return [...uri.matchAll(TOKEN)].map(([text, requestId, rawPath]) => {
    const path = parsePath(rawPath);
    if (!path)
      throw new Error(
        `the replacement token ${text} has a JSONPath other than $ followed by .name, ['name'] or [index] steps`,
      );
    return { text, requestId, path };
  });
}

/** The value a path names in a parsed body: a string or a number, else undefined. */
export function valueAt(body: unknown, path: PathStep[]): string | number | undefined {
  let at: unknown = body;
  for (const step of path) {
    if (at === null || typeof at !== 'object') return undefined;
    if (typeof step === 'number' ? !Array.isArray(at) : Array.isArray(at)) return undefined;
    at = (at as Record<string | number, unknown>)[step];
  }
  return typeof at === 'string' || (typeof at === 'number' && Number.isFinite(at)) ? at : undefined;
}

/** An item whose `waitFor` cannot be met: it names an unknown item, or it is on a cycle. */
export class DependencyError extends Error {
  constructor(
    readonly requestId: string,
    message: string,
  ) {
    super(message);
  }
}

/** The items in an order where each comes after those it waits for (DependencyError when there is none). */
export function dependencyOrder<T extends { requestId: string; waitFor: string[] }>(items: T[]): T[] {
  const byId = new Map(items.map((item) => [item.requestId, item]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const ordered: T[] = [];
  const visit = (item: T) => {
    if (done.has(item.requestId)) return;
    if (visiting.has(item.requestId))
      throw new DependencyError(item.requestId, `"waitFor" makes a cycle: "${item.requestId}" waits for itself`);
    visiting.add(item.requestId);
    for (const id of item.waitFor) {
      const other = byId.get(id);
      if (!other) throw new DependencyError(item.requestId, `"waitFor" names "${id}", which is not in the blueprint`);
      visit(other);
    }
    visiting.delete(item.requestId);
    done.add(item.requestId);
    ordered.push(item);
  };
  items.forEach(visit);
  return ordered;
}
