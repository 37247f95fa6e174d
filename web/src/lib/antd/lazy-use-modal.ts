import type { HookAPI } from 'antd/es/modal/useModal';
import { lazyHookApi } from './lazy-hook-api';

type Instance = ReturnType<HookAPI['confirm']>;

/** antd's `modal/useModal` for antd's `<App>`, loaded on the first dialog (see lazy-hook-api.ts). */
export default lazyHookApi<HookAPI>(
  async () => (await import('antd/es/modal/useModal')).default,
  ['confirm', 'info', 'success', 'error', 'warning'],
  // An instance whose destroy, update and then wait for the real one.
  (pending) => {
    const ready = pending as Promise<Instance>;
    return {
      destroy: () => void ready.then((i) => i.destroy()),
      update: (next: Parameters<Instance['update']>[0]) => void ready.then((i) => i.update(next)),
      then: (resolve: (confirmed: boolean) => void, reject: VoidFunction) => ready.then((i) => i.then(resolve, reject)),
    };
  },
);
