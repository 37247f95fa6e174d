import { test as base } from '@playwright/test';

export * from '@playwright/test';

/** How many of the last API answers a failure prints (Playwright prints 300 characters of a text attachment). */
const KEPT = 4;
const API = /^\/(jsonapi|oauth|api|subrequests)(\/|$)/;

/**
 * The browser suite's `test`: Playwright's, which also notes the API's answers that matter when a step fails (every
 * write, every refusal, every request that got no answer) and prints the last of them under the failure. A CI log
 * holds only the failure's text: a step waiting for a page that never came then says whether the write was sent and
 * what the server answered (a 409, a 500), which the trace would tell but the log does not keep.
 */
export const test = base.extend<{ apiTrail: void }>({
  apiTrail: [
    async ({ context }, use, testInfo) => {
      const trail: string[] = [];
      const note = (line: string) => {
        trail.push(line);
        if (trail.length > KEPT) trail.shift();
      };
      context.on('response', (response) => {
        const request = response.request();
        const path = new URL(response.url()).pathname;
        if (!API.test(path) || (request.method() === 'GET' && response.status() < 400)) return;
        note(`${request.method()} ${path} ${response.status()}`);
      });
      context.on('requestfailed', (request) => {
        const path = new URL(request.url()).pathname;
        if (API.test(path)) note(`${request.method()} ${path} no answer (${request.failure()?.errorText ?? 'failed'})`);
      });
      await use();
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('last API writes and refusals', {
          body: trail.join('\n') || 'none',
          contentType: 'text/plain',
        });
      }
    },
    { auto: true },
  ],
});
