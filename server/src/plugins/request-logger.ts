import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Record<string, unknown>;
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];

/**
 * A request's logger that makes pino's child (its request id bound) only when a line is written. Fastify makes one
 * for every request; at `warn` and above hardly any request writes a line, and the child (its bindings serialised,
 * a new logger object) was a measurable part of a small read (decision 0007). A line below the
 * level is dropped before anything is made, as pino would drop it.
 */
class LazyRequestLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.made && !this.parent.isLevelEnabled(level)) return;
    (this.real[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }
  set level(value: string) {
    this.real.level = value;
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}
  isLevelEnabled(level: string): boolean {
    return ((this.made as Logger | null) ?? this.parent).isLevelEnabled(level);
  }
  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: every request's `request.log` is made lazily. A route with a log level of its own
 * (none today) gets pino's child at once, since the parent's level would not tell what it drops; so does a logger
 * that is not pino (Fastify's silent one, `logger: false` in tests, whose child is itself).
 */
export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) =>
  options.level || typeof (logger as Partial<Logger>).isLevelEnabled !== 'function'
    ? logger.child(bindings, options)
    : (new LazyRequestLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger);
