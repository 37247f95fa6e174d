import { createElement, lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactElement } from 'react';

/**
 * antd's `<App>` (around every signed-in page) creates the modal and notification hooks behind
 * `App.useApp()`, which brought their code (dialogs about 9 KB gzip, notifications about 3 KB) into every first
 * load, although a page shows one, if ever, only after an action. web/vite.config.ts points App's two imports at
 * stand-ins made here: the real hook is loaded on the first call, the call waits for it (a few milliseconds), then
 * runs as usual, in the page's theme and language like any hook-made dialog or notification.
 *
 * `wrap` makes what a method returns before the real hook is there (a modal's instance); calls on it wait too.
 */
export function lazyHookApi<Api extends object>(
  load: () => Promise<() => readonly [Api, ReactElement]>,
  methods: readonly (keyof Api & string)[],
  wrap: (pending: Promise<unknown>) => unknown = () => undefined,
): () => readonly [Api, ReactElement | null] {
  const RealHolder = lazy(async () => {
    const useReal = await load();
    return {
      default: function RealHolder({ onReady }: { onReady: (api: Api) => void }) {
        const [api, holder] = useReal();
        useEffect(() => onReady(api), [api, onReady]);
        return holder;
      },
    };
  });

  return function useLazyApi() {
    const [wanted, setWanted] = useState(false);
    const real = useRef<Api | null>(null);
    const queue = useRef<{ method: keyof Api & string; args: unknown[]; done: (result: unknown) => void }[]>([]);
    const call = (api: Api, method: keyof Api & string, args: unknown[]) =>
      (api[method] as (...a: unknown[]) => unknown)(...args);

    const api = useMemo(() => {
      const out: Record<string, (...args: unknown[]) => unknown> = {};
      for (const method of methods) {
        out[method] = (...args) => {
          if (real.current) return call(real.current, method, args);
          const pending = new Promise((done) => queue.current.push({ method, args, done }));
          setWanted(true);
          return wrap(pending);
        };
      }
      return out as Api;
    }, []);

    const onReady = useMemo(
      () => (loaded: Api) => {
        real.current = loaded;
        for (const p of queue.current.splice(0)) p.done(call(loaded, p.method, p.args));
      },
      [],
    );

    const holder = wanted ? createElement(Suspense, { fallback: null }, createElement(RealHolder, { onReady })) : null;
    return [api, holder] as const;
  };
}
