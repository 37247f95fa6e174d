import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/http/errors';
import { errorText } from './query-state';

describe('errorText', () => {
  it("says the portal's own words when a 503 carries them", () => {
    const busy = new ApiError(503, [{ status: '503', detail: 'The directory is being restored.' }]);
    expect(errorText(busy)).toBe('The directory is being restored.');
  });

  it('says the portal cannot be reached when a gateway answers without words, or nothing answers', () => {
    const gateway = errorText(new ApiError(502));
    expect(gateway).not.toBe('message: 502');
    expect(errorText(new TypeError('Failed to fetch'))).toBe(gateway);
  });
});
