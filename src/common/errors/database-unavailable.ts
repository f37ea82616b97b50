import { AppError } from './app-error';
import { CommonError, commonError } from './common-errors';

/** What a client is told to wait (`Retry-After`, seconds) while PostgreSQL is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of a connection that could not be made or was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own: admin_shutdown (a fast or immediate stop ends every session), crash_shutdown,
 * cannot_connect_now (starting up, shutting down, in recovery), read_only_sql_transaction (a write
 * that reached a standby: a leader being demoted in a switchover, before the proxy cuts its
 * connections). Class 08 (connection exceptions) is matched by its prefix.
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '25006']);

/**
 * `pg`'s errors for a connection that ended, never came, could not be had from the pool in time,
 * or left a statement unanswered past `DB_QUERY_TIMEOUT_MS` (a frozen server).
 */
const CLIENT_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Query read timeout)/;

/**
 * True when `err` says PostgreSQL could not be reached (stopped, restarting, failing over, or the
 * pool could not get a connection in time), rather than that a statement was wrong: the request
 * may succeed once it is back, so it answers 503 with `Retry-After`, never 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  // Read by shape, not `instanceof Error`: a socket error is made by node's own realm.
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return typeof message === 'string' && CLIENT_MESSAGES.test(message);
}

/** The answer while PostgreSQL is unreachable: 503 `Service unavailable` with `Retry-After`. */
export function serviceUnavailable(): AppError {
  return commonError(CommonError.ServiceUnavailable).retryAfter(DATABASE_RETRY_AFTER_SECONDS);
}
