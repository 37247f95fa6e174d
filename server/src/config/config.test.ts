import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const base = { DATABASE_URL: 'sqlite::memory:' };

describe('configuration: WEB_CONCURRENCY', () => {
  it('is 1 when unset or empty', () => {
    expect(loadConfig({ ...base }).webConcurrency).toBe(1);
    expect(loadConfig({ ...base, WEB_CONCURRENCY: '' }).webConcurrency).toBe(1);
  });

  it('reads a worker count from 1 to 64', () => {
    expect(loadConfig({ ...base, WEB_CONCURRENCY: '1' }).webConcurrency).toBe(1);
    expect(loadConfig({ ...base, WEB_CONCURRENCY: '4' }).webConcurrency).toBe(4);
    expect(loadConfig({ ...base, WEB_CONCURRENCY: '64' }).webConcurrency).toBe(64);
  });

  for (const bad of ['0', '65', '-2', '1.5', 'two', '2x']) {
    it(`stops with a line naming the variable for "${bad}"`, () => {
      expect(() => loadConfig({ ...base, WEB_CONCURRENCY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, WEB_CONCURRENCY: bad })).toThrow(/^Invalid configuration: WEB_CONCURRENCY: /);
    });
  }
});
