import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Record<string, unknown>;
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type LogArgs = Parameters<FastifyBaseLogger['info']>;

/** The pino calls a request logger answers without a child of its own. */
interface ParentLogger extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
}

/**
 * A request's logger (`request.log`) that makes its pino child, with the request id
 * bound, the first time something is written at an enabled level. Fastify makes one per
 * request; a pino child serializes its bindings through the redaction paths at creation,
 * which for a request that logs nothing (every request, at `warn`) was work for nothing.
 * Lines written are the same as the eager child's.
 */
class RequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: ParentLogger,
    private readonly bindings: Bindings,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings));
  }

  private write(level: LevelName, args: LogArgs): void {
    if (this.#child || this.parent.isLevelEnabled(level)) (this.real[level] as (...a: LogArgs) => void)(...args);
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.#child ? (this.#child as ParentLogger).isLevelEnabled(level) : this.parent.isLevelEnabled(level);
  }

  fatal(...args: LogArgs): void {
    this.write('fatal', args);
  }
  error(...args: LogArgs): void {
    this.write('error', args);
  }
  warn(...args: LogArgs): void {
    this.write('warn', args);
  }
  info(...args: LogArgs): void {
    this.write('info', args);
  }
  debug(...args: LogArgs): void {
    this.write('debug', args);
  }
  trace(...args: LogArgs): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

/**
 * Fastify's childLoggerFactory for a pino logger: the lazy RequestLogger, or an eager
 * child when the route sets its own level or serializers.
 */
export const requestLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = function (logger, bindings, options) {
  const parent = logger as ParentLogger;
  if (options.level !== undefined || options.serializers !== undefined || typeof parent.isLevelEnabled !== 'function') {
    return logger.child(bindings, options);
  }
  return new RequestLogger(parent, bindings) as unknown as FastifyBaseLogger;
};
