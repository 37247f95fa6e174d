import { expect, it } from 'vitest';
import { clientMajor, findPgTool } from './pg-client.js';

/**
 * The client programs found for a server are of its major version or newer (pg_dump refuses a newer server), and
 * none is found for a major beyond every installed client. Needs PostgreSQL's client installed (npm test sees to it).
 */
it('finds pg_dump and pg_restore of the installed major version, and none for a newer server', () => {
  for (const tool of ['pg_dump', 'pg_restore'] as const) {
    const any = findPgTool(tool, 0);
    expect(any, `${tool} is installed`).not.toBeNull();
    const major = clientMajor(any!)!;
    expect(major).toBeGreaterThanOrEqual(9);
    const exact = findPgTool(tool, major)!;
    expect(clientMajor(exact)).toBeGreaterThanOrEqual(major);
    expect(findPgTool(tool, 1000)).toBeNull();
  }
});
