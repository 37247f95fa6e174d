import type { AppContext } from '../context.js';
import type { MailLog } from '../mail/mailer.js';
import { runReminders, type ReminderSettings } from './run.js';

/**
 * The reminder job of a server process: every `intervalSeconds` one pass of runReminders (never two at once in one
 * process; replicas coordinate through the database). Off when the interval is 0.
 */
export interface ReminderJob {
  stop(): Promise<void>;
}

export function startReminderJob(
  ctx: AppContext,
  log: MailLog,
  settings: ReminderSettings & { intervalSeconds: number },
): ReminderJob | null {
  if (settings.intervalSeconds <= 0) return null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = runReminders(ctx, settings, log)
      .then((r) => {
        if (r.claimed > 0) log.info({ reminders: r }, 'reminders sent');
      })
      .catch((err: unknown) => {
        log.error({ err }, 'the reminder job failed');
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, settings.intervalSeconds * 1000);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (running) await running;
    },
  };
}
