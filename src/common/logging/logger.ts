import { trace } from '@opentelemetry/api';
import { LoggerService } from '@nestjs/common';
import { inspect } from 'node:util';
import pino, { DestinationStream, Logger } from 'pino';
import { prettyStream } from './pretty';

export type LogFormat = 'json' | 'pretty';

/** The format of the process's own logs (on stdout): the one asked for, else pretty only on a terminal. */
export function stdoutLogFormat(format?: LogFormat): LogFormat {
  return format ?? (process.stdout.isTTY ? 'pretty' : 'json');
}

/**
 * One pino logger per process: Fastify logs requests through it and Nest's own messages go to it
 * through {@link NestPinoLogger}. Request headers are never logged, so neither are API keys.
 *
 * JSON lines unless asked for `pretty`; with no format given, pretty only when the logs go to
 * stdout and stdout is a terminal (a given stream is a test or a tool reading the JSON).
 */
/**
 * The trace a log line was written in, when tracing runs (src/telemetry.ts): a line and its spans
 * are found from one another. Without tracing there is never an active span.
 */
function traceOfLine(): object {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

export function createLogger(level: string, stream?: DestinationStream, format?: LogFormat): Logger {
  const toTerminal = !stream && Boolean(process.stdout.isTTY);
  const options = { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, mixin: traceOfLine };
  if ((format ?? (toTerminal ? 'pretty' : 'json')) === 'json') {
    return pino(options, stream ?? pino.destination({ sync: false }));
  }
  // Synchronous on a terminal, so log lines and the start-up banner come out in the order written.
  const out = stream ?? pino.destination({ dest: 1, sync: true });
  return pino(options, prettyStream(out, { color: toTerminal && !process.env.NO_COLOR }));
}

/** Nest's start-up chatter (module wiring, one line per route): useful when debugging, noise otherwise. */
const START_UP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** Nest passes `error(message, stack)`; a stack is never the context. */
const STACK = /^(.)+\n\s+at .+:\d+:\d+/;

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Nest's `Logger` calls `warn(message, ...params)` with the context appended last, so
 * `logger.warn({ paymentId }, 'bank call failed')` arrives as `({ paymentId }, 'bank call failed', 'Context')`.
 * The object's fields, the message and the context all end up in the one pino entry; an Error
 * (as the message, or as `{ err }`) goes under `err`, where pino's serializer keeps its type,
 * message and stack.
 */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  private write(level: Level, message: unknown, params: unknown[]) {
    const rest = [...params];
    const last = rest[rest.length - 1];
    const context = typeof last === 'string' && !STACK.test(last) ? (rest.pop() as string) : undefined;

    let fields: Record<string, unknown> = {};
    let msg: string | undefined;
    if (message instanceof Error) fields.err = message;
    else if (message !== null && typeof message === 'object')
      fields = { ...(message as Record<string, unknown>) };
    else if (message !== undefined) msg = typeof message === 'string' ? message : inspect(message);

    const extra: unknown[] = [];
    for (const param of rest) {
      if (param === undefined) continue; // Nest pads error() with undefined before the context
      if (typeof param === 'string' && STACK.test(param)) fields.stack = param;
      else if (typeof param === 'string' && msg === undefined) msg = param;
      else if (param instanceof Error && fields.err === undefined) fields.err = param;
      else extra.push(param);
    }
    if (extra.length > 0) fields.params = extra;
    if (msg === undefined && message instanceof Error) msg = message.message;

    const entry = context === undefined ? fields : { context, ...fields };
    const at = level === 'info' && context !== undefined && START_UP_CONTEXTS.has(context) ? 'debug' : level;
    if (msg === undefined) this.logger[at](entry);
    else this.logger[at](entry, msg);
  }

  log(message: unknown, ...rest: unknown[]) {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]) {
    this.write('fatal', message, rest);
  }
}
