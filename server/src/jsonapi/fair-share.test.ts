import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/errors.js';
import { PerUserTurns } from './fair-share.js';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};
const tick = () => new Promise((r) => setImmediate(r));

describe('PerUserTurns', () => {
  it('runs at most maxRunning reads of one user at once, the rest in order; other users are not held', async () => {
    const turns = new PerUserTurns(2, 10);
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const read = (user: string, name: string) =>
      turns.run(user, async () => {
        started.push(name);
        const gate = deferred();
        gates.set(name, gate);
        await gate.promise;
        return name;
      });
    const a = ['a1', 'a2', 'a3', 'a4'].map((n) => read('alice', n));
    const b = read('bob', 'b1');
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    gates.get('a2')!.resolve();
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    for (const n of ['a1', 'a3', 'b1']) gates.get(n)!.resolve();
    await tick();
    gates.get('a4')!.resolve();
    expect(await Promise.all([...a, b])).toEqual(['a1', 'a2', 'a3', 'a4', 'b1']);
    expect(turns.size).toBe(0);
  });

  it('answers 429 beyond maxWaiting, and a failed read passes its turn on', async () => {
    const turns = new PerUserTurns(1, 1);
    const gate = deferred();
    const first = turns.run('u', () =>
      gate.promise.then(() => {
        throw new Error('boom');
      }),
    );
    const second = turns.run('u', async () => 'second');
    const third = turns.run('u', async () => 'third').catch((e: ApiError) => e);
    expect(((await third) as ApiError).status).toBe(429);
    gate.resolve();
    await expect(first).rejects.toThrow('boom');
    expect(await second).toBe('second');
    expect(turns.size).toBe(0);
  });
});
