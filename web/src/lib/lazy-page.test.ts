import { createElement, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lazyPage } from './lazy-page';

const Greeting = ({ name }: { name: string }) => createElement('p', null, `Hello ${name}`);
const inSuspense = (node: ReturnType<typeof createElement>) =>
  renderToString(createElement(Suspense, { fallback: 'loading' }, node));

describe('lazyPage', () => {
  it('suspends before its chunk is loaded and renders at once, with its props, after preload()', async () => {
    const Page = lazyPage(async () => ({ default: Greeting }));
    expect(inSuspense(createElement(Page, { name: 'Ann' }))).toContain('loading');
    await Page.preload();
    // `<!--$-->`: the boundary completed, its fallback never used.
    expect(inSuspense(createElement(Page, { name: 'Ann' }))).toBe('<!--$--><p>Hello Ann</p><!--/$-->');
  });

  it('loads once however often it is asked, and asks again after a failed load', async () => {
    let calls = 0;
    const Page = lazyPage(async () => {
      calls += 1;
      if (calls === 1) throw new Error('chunk failed');
      return { default: Greeting };
    });
    await expect(Page.preload()).rejects.toThrow('chunk failed');
    await Promise.all([Page.preload(), Page.preload()]);
    expect(calls).toBe(2);
    expect(inSuspense(createElement(Page, { name: 'Bo' }))).toBe('<!--$--><p>Hello Bo</p><!--/$-->');
  });
});
