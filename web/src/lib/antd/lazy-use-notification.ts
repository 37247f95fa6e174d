import type { NotificationInstance } from 'antd/es/notification/interface';
import type { NotificationConfig } from 'antd/es/notification/interface';
import type { ReactElement } from 'react';
import { lazyHookApi } from './lazy-hook-api';

/**
 * antd's `notification/useNotification` for antd's `<App>`, loaded on the first notification (see lazy-hook-api.ts).
 */
const useLazyNotification = lazyHookApi<NotificationInstance>(
  async () =>
    (await import('antd/es/notification/useNotification')).default as () => readonly [
      NotificationInstance,
      ReactElement,
    ],
  ['open', 'success', 'error', 'info', 'warning', 'destroy'],
);

// App passes its notification config; the stand-in keeps antd's defaults (the portal sets none).
export default function useNotification(_config?: NotificationConfig) {
  return useLazyNotification();
}
