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

describe('configuration: PORTAL_MECHANISMS_OFF', () => {
  it('turns the named mechanisms off, the others stay on', () => {
    const config = loadConfig({ ...base, PORTAL_MECHANISMS_OFF: 'shape-cache, pg-named' });
    expect(config.mechanisms).toEqual({
      'document-cache': true,
      'shape-cache': false,
      'row-builders': true,
      'pg-named': false,
      'stale-kept': true,
      'pdf-threads': true,
      'reads-beside-writes': true,
    });
    expect(config.documentCacheBytes).toBeGreaterThan(0);
  });

  it('keeps no documents when the document cache is off, whatever DOCUMENT_CACHE_MB says', () => {
    const config = loadConfig({ ...base, DOCUMENT_CACHE_MB: '64', PORTAL_MECHANISMS_OFF: 'document-cache' });
    expect(config.documentCacheBytes).toBe(0);
  });

  it('refuses an unknown name, naming it and the known ones', () => {
    const load = () => loadConfig({ ...base, PORTAL_MECHANISMS_OFF: 'document-cache,row-builder' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/^Invalid configuration: PORTAL_MECHANISMS_OFF: unknown mechanism row-builder; known: /);
  });
});
