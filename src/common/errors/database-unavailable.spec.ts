import { AppError } from './app-error';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  serviceUnavailable,
} from './database-unavailable';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    [
      'a refused connection (server stopped)',
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    ],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
    [
      'admin_shutdown: the server ended the session (fast stop)',
      withCode('terminating connection due to administrator command', '57P01'),
    ],
    [
      'cannot_connect_now: starting up or shutting down',
      withCode('the database system is shutting down', '57P03'),
    ],
    ['a connection exception (class 08)', withCode('connection failure', '08006')],
    ['a connection cut mid-statement', new Error('Connection terminated unexpectedly')],
    ['no connection within the pool time-out', new Error('timeout exceeded when trying to connect')],
    ['a connect time-out', new Error('Connection terminated due to connection timeout')],
    ['a statement a frozen server never answered (DB_QUERY_TIMEOUT_MS)', new Error('Query read timeout')],
    [
      'a write that reached a standby (a leader being demoted)',
      withCode('cannot execute INSERT in a read-only transaction', '25006'),
    ],
  ])('is true for %s', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a syntax error', withCode('syntax error at or near "SELEC"', '42601')],
    ['a serialization failure', withCode('could not serialize access', '40001')],
    ['a plain error', new Error('something else broke')],
    ['a non-error', 'ECONNREFUSED'],
  ])('is false for %s', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});

it('answers 503 Service unavailable with a Retry-After in whole seconds', () => {
  const err = serviceUnavailable();
  expect(err).toBeInstanceOf(AppError);
  expect(err.status).toBe(503);
  expect(err.message).toBe('Service unavailable');
  expect(err.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
});
