import { appException, AppException, errorFromAnswer, isAppException } from './errors';
import type { Operations } from './types';

export interface ClientOptions {
  /** Default `http://localhost:3000/api/v1`; the service's `{base_url}`, ending in `/api/v1`. */
  baseUrl?: string;
  /** Milliseconds before a call gives up with code `timeout` (per attempt). Default 60 000. */
  timeout?: number;
  /** Retries of a retryable failure (README "Retries and idempotency"). Default 3. */
  maxRetries?: number;
  /** Waits before retry 1, 2, 3… Default 1 s, 2 s, 4 s (the last one repeats). */
  retryDelays?: number[];
  /**
   * A 429 `Too many requests` is retried after its `Retry-After` (at least the backoff's wait)
   * when that is at most this many milliseconds (default 10 000); a longer one (the pay-attempt
   * limit's minutes) is thrown at once, its `retryAfter` telling when to try again.
   */
  maxRetryAfter?: number;
  /**
   * Send an `Idempotency-Key` with every POST (default true), so a POST that failed without an
   * answer is retried safely with the same key. Off: POSTs are never resubmitted (pay included),
   * except the two that are safe to retry, creating a payment request (looked up first) and a
   * checkout session, and after a 429 (refused before anything ran).
   */
  idempotency?: boolean;
  /**
   * A platform's key only: the connected account every call acts for (`Khoums-Account`); a call's
   * own `account` option wins.
   */
  account?: string;
  /** The fetch to use (default the platform's). */
  fetch?: typeof fetch;
  /** How retries wait (default a timer); tests replace it so they do not wait. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface RequestOptions {
  /** Aborts the call (and its retries) with code `abort_error`. */
  signal?: AbortSignal;
  /** Overrides the client's time-out for this call, in milliseconds. */
  timeout?: number;
  /** Overrides the client's retries for this call. */
  maxRetries?: number;
  /** POST only: the key to send (default a new random one per call, reused by its retries). */
  idempotencyKey?: string;
  /** A platform's key only: the connected account this call acts for (`Khoums-Account`). */
  account?: string;
}

/**
 * When a failed call may be sent again:
 * - `read`: connection errors, time-outs, 500, 502, 503, 504, with backoff.
 * - `write`: the same, only when the call carries an Idempotency-Key or is safe to repeat.
 * - `pay`: with a key, as `write` but never after a 502 (the bank's answer: a failed payment is
 *   not resubmitted at once); without a key, never.
 * - every policy: a 429 whose Retry-After is short (`maxRetryAfter`), since the service refuses it
 *   before running anything (the rate limits, the pay-attempt limit), and a keyed call's
 *   409 `A request with this idempotency key is in progress`.
 */
export type RetryPolicy = 'read' | 'write' | 'pay' | 'safe-write';

type Op<K extends keyof Operations> = Operations[K];
type Parts<K extends keyof Operations> = (Op<K>['params'] extends Record<string, never>
  ? { params?: undefined }
  : { params: Op<K>['params'] }) &
  (Op<K>['query'] extends Record<string, never> ? { query?: undefined } : { query?: Op<K>['query'] }) &
  ([Op<K>['body']] extends [never] ? { body?: undefined } : { body: Op<K>['body'] });

export type CallInput<K extends keyof Operations> = Parts<K> & {
  /**
   * Before a retry: a value ends the call with it (e.g. the payment request the failed create
   * made after all); undefined retries.
   */
  recover?: (failure: AppException) => Promise<Op<K>['response'] | undefined>;
};

const RETRYABLE_STATUSES = [500, 502, 503, 504];
const TOO_MANY_REQUESTS = 429;
const IN_PROGRESS = 'A request with this idempotency key is in progress';

function isBrowser(): boolean {
  const g = globalThis as { document?: unknown; WorkerGlobalScope?: unknown };
  return typeof g.document !== 'undefined' || typeof g.WorkerGlobalScope !== 'undefined';
}

/** A v4 UUID from the platform's random source (randomUUID needs a secure context in browsers). */
export function newIdempotencyKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      if (signal?.aborted) reject(aborted());
      else resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

const aborted = () => appException('The request was aborted', 'abort_error');

export class Transport {
  private readonly baseUrl: string;

  /** Waits `ms` as the retries do (the client's `sleep`), ending early with `abort_error` on `signal`. */
  wait(ms: number, signal?: AbortSignal): Promise<void> {
    return (this.options.sleep ?? defaultSleep)(ms, signal);
  }

  private readonly fetch: typeof fetch;

  constructor(
    private readonly apiKey: string,
    private readonly options: ClientOptions = {},
  ) {
    if (typeof apiKey !== 'string' || apiKey.trim() === '') {
      throw appException('An API key is required', 'invalid_api_key');
    }
    if (apiKey.startsWith('sk_') && isBrowser()) {
      throw appException(
        'Secret keys (sk_…) must never reach a browser: use a publishable key (pk_…) here',
        'invalid_api_key',
      );
    }
    this.baseUrl = (options.baseUrl ?? 'http://localhost:3000/api/v1').replace(/\/+$/, '');
    const f = options.fetch ?? globalThis.fetch;
    this.fetch = (input, init) => f(input, init);
  }

  /** Calls one route of `Operations` (`'GET /payment-request/{id}'`) and returns its 200 body. */
  call<K extends keyof Operations>(
    route: K,
    input: CallInput<K>,
    policy: RetryPolicy,
    options: RequestOptions = {},
  ): Promise<Op<K>['response']> {
    return this.request(route, input, policy, options, 'json') as Promise<Op<K>['response']>;
  }

  /**
   * Downloads a document (a GET route answering bytes, e.g. `'GET /invoices/{id}/pdf'`): its 200
   * body's bytes, retried as a read; an error answer is thrown as any other.
   */
  download<K extends keyof Operations>(
    route: K,
    input: CallInput<K>,
    accept: string,
    options: RequestOptions = {},
  ): Promise<Uint8Array> {
    return this.request(route, input, 'read', options, accept) as Promise<Uint8Array>;
  }

  private async request<K extends keyof Operations>(
    route: K,
    input: CallInput<K>,
    policy: RetryPolicy,
    options: RequestOptions,
    /** 'json': the parsed JSON body; else the media type of a document whose bytes are answered. */
    as: string,
  ): Promise<unknown> {
    const space = route.indexOf(' ');
    const method = route.slice(0, space);
    const params = (input.params ?? {}) as Record<string, string>;
    let url =
      this.baseUrl +
      route.slice(space + 1).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]));
    const query = Object.entries((input.query ?? {}) as Record<string, unknown>).filter(
      ([, v]) => v !== undefined && v !== null,
    );
    if (query.length)
      url += '?' + new URLSearchParams(query.map(([k, v]): [string, string] => [k, String(v)])).toString();

    const headers: Record<string, string> = {
      Authorization: this.apiKey,
      Accept: as === 'json' ? 'application/json' : as,
    };
    const account = options.account ?? this.options.account;
    if (account !== undefined) headers['Khoums-Account'] = account;
    let body: string | undefined;
    if (method !== 'GET' && method !== 'DELETE') {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(input.body ?? {});
    }
    const keyed = method === 'POST' && this.options.idempotency !== false;
    if (keyed) headers['Idempotency-Key'] = options.idempotencyKey ?? newIdempotencyKey();

    const maxRetries = options.maxRetries ?? this.options.maxRetries ?? 3;
    const delays = this.options.retryDelays ?? [1000, 2000, 4000];
    const sleep = this.options.sleep ?? defaultSleep;
    const retry: RetryRule = { policy, keyed, maxRetryAfter: this.options.maxRetryAfter ?? 10_000 };
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.send(method, url, headers, body, options, as === 'json');
      } catch (err) {
        if (!isAppException(err) || attempt >= maxRetries || !retryable(err, retry)) throw err;
        const backoff = delays[Math.min(attempt, delays.length - 1)];
        await sleep(Math.max(backoff, (err.retryAfter ?? 0) * 1000), options.signal);
        if (options.signal?.aborted) throw aborted();
        // A 429 ran nothing: there is nothing to look for before sending it again.
        if (input.recover && err.status !== TOO_MANY_REQUESTS) {
          try {
            const recovered = await input.recover(err);
            if (recovered !== undefined) return recovered;
          } catch (failure) {
            // the look-up failed too: the next attempt looks again, unless this one cannot be retried
            if (!isAppException(failure) || !retryable(failure, { ...retry, policy: 'read' })) throw failure;
          }
        }
      }
    }
  }

  private async send(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    options: RequestOptions,
    json = true,
  ): Promise<unknown> {
    const signal = options.signal;
    if (signal?.aborted) throw aborted();
    const controller = new AbortController();
    let timedOut = false;
    const timeout = options.timeout ?? this.options.timeout ?? 60_000;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let status: number;
    let text = '';
    let bytes: Uint8Array | undefined;
    let answerHeaders: Headers;
    try {
      const res = await this.fetch(url, { method, headers, body, signal: controller.signal });
      status = res.status;
      answerHeaders = res.headers;
      if (!json && res.ok) bytes = new Uint8Array(await res.arrayBuffer());
      else text = await res.text();
    } catch (cause) {
      if (signal?.aborted) throw appException('The request was aborted', 'abort_error', { cause });
      if (timedOut) throw appException(`No answer within ${timeout} ms`, 'timeout', { cause });
      throw appException(`Could not reach ${url}`, 'connection_error', { cause });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    if (status < 200 || status > 299) throw errorFromAnswer(status, text, answerHeaders);
    if (bytes) return bytes;
    try {
      return JSON.parse(text);
    } catch (cause) {
      const requestId = answerHeaders.get('x-request-id') ?? undefined;
      throw appException('The answer is not JSON', 'unknown', { status, requestId, cause });
    }
  }
}

interface RetryRule {
  policy: RetryPolicy;
  keyed: boolean;
  maxRetryAfter: number;
}

function retryable(err: AppException, { policy, keyed, maxRetryAfter }: RetryRule): boolean {
  if (err.status === TOO_MANY_REQUESTS) return (err.retryAfter ?? 0) * 1000 <= maxRetryAfter;
  const noAnswer = err.code === 'connection_error' || err.code === 'timeout';
  const status = err.status ?? 0;
  switch (policy) {
    case 'read':
    case 'safe-write':
      return noAnswer || RETRYABLE_STATUSES.includes(status) || (keyed && isInProgress(err));
    case 'write':
      return keyed && (noAnswer || RETRYABLE_STATUSES.includes(status) || isInProgress(err));
    case 'pay':
      return (
        keyed && (noAnswer || (status !== 502 && RETRYABLE_STATUSES.includes(status)) || isInProgress(err))
      );
  }
}

function isInProgress(err: AppException): boolean {
  return err.status === 409 && err.message === IN_PROGRESS;
}
