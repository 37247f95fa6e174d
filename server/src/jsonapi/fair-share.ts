import { ApiError } from '../lib/errors.js';

/**
 * Reads one user may have built at once; the next wait their turn, in order. A user's parallel reads then take turns
 * with everyone else's instead of filling the event loop (on SQLite every statement runs on it): issue 32 had one
 * user's four loops of costly reads raise another user's median from 3 ms to 600 ms. Documents sent from the
 * document cache cost almost nothing and do not count. Beyond `maxWaiting` waiting reads, a 429.
 */
export class PerUserTurns {
  private readonly users = new Map<string, { running: number; waiting: Array<() => void> }>();

  constructor(
    readonly maxRunning: number,
    readonly maxWaiting: number,
  ) {}

  async run<T>(userId: string, task: () => Promise<T>): Promise<T> {
    let user = this.users.get(userId);
    if (!user) this.users.set(userId, (user = { running: 0, waiting: [] }));
    if (user.running < this.maxRunning) user.running += 1;
    else if (user.waiting.length >= this.maxWaiting) {
      throw new ApiError(
        429,
        `Too many reads at once: at most ${this.maxRunning} run and ${this.maxWaiting} wait for one user.`,
        {},
        { 'retry-after': '1' },
      );
    } else await new Promise<void>((resolve) => user.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = user.waiting.shift();
      // The turn passes straight to the next waiting read, or is given back.
      if (next) next();
      else if ((user.running -= 1) === 0) this.users.delete(userId);
    }
  }

  /** Users with reads running or waiting (tests). */
  get size(): number {
    return this.users.size;
  }
}

/** Two reads of one user built at once, 32 more waiting (a subrequests batch has at most 10). */
export const READS_RUNNING_PER_USER = 2;
export const READS_WAITING_PER_USER = 32;
