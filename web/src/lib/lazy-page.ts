import { createElement, lazy, useState, type ComponentType } from 'react';

export type LazyPage<P extends object> = ComponentType<P> & {
  /** Fetches and runs the page's chunk; resolves when the page can render without suspending. */
  preload: () => Promise<unknown>;
};

/**
 * `React.lazy` that can be loaded ahead (`Page.preload()`), and that renders without suspending once its chunk is
 * in. A plain lazy component suspends on its first render even when its chunk is already loaded, and React then
 * holds the page's reveal back for up to 300 ms (its Suspense throttle): after sign-in that was most of the time
 * between the data arriving and the dashboard showing it. Each mounted page keeps the component it started with, so
 * a page first shown through the lazy path is never remounted when the chunk lands.
 */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<unknown> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (mod) => {
        loaded = mod.default;
      },
      (error: unknown) => {
        loading = undefined; // a failed fetch may be retried (the router's error page offers it)
        throw error;
      },
    ));
  const Lazy = lazy(async () => {
    await preload();
    return { default: loaded! };
  });
  function Page(props: P) {
    const [Component] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return createElement(Component, props);
  }
  return Object.assign(Page, { preload });
}
