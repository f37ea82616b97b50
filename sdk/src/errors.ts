import type { ApiErrorMessage } from './api.generated';

/**
 * Every failure of an API call is an `AppException` (the class is
 * not exported: test with `isAppException(err)` or the `name`).
 */

/** What the API's 422 body holds (sent as text/plain; the library parses it). */
export interface ValidationErrorBody {
  type: 'validation';
  on: 'body' | 'query' | 'params';
  property: string;
  message: string;
  summary: string;
  expected: Record<string, unknown>;
  found: unknown;
  errors: Array<{ property: string; message: string; summary?: string; found?: unknown }>;
}

/** The codes given when no answer came, and for an API key refused before any request. */
export type AppExceptionCode = 'connection_error' | 'timeout' | 'abort_error' | 'invalid_api_key' | 'unknown';

class AppException extends Error {
  override readonly name = 'AppException';
  /**
   * `connection_error`, `timeout` or `abort_error` when no answer came; `invalid_api_key` when the
   * client refused the key itself; otherwise the API's plain-text body, or `unknown` when the body
   * is not a plain-text message (a 422's JSON, an empty or HTML body). The API's messages are
   * those of its OpenAPI document (`ApiErrorMessage`; `ErrorsOf<route>` by route and status), or a
   * message naming a value the document gives as a pattern.
   */
  readonly code: AppExceptionCode | ApiErrorMessage | (string & {});
  /** The HTTP status, when the API answered. */
  readonly status?: number;
  /** The parsed validation body of a 422. */
  readonly validation?: ValidationErrorBody;
  /** The answer's `x-request-id`, to quote when asking for support. */
  readonly requestId?: string;
  /** A 429's or 503's `Retry-After`: the seconds to wait before sending the request again. */
  readonly retryAfter?: number;

  constructor(
    message: string,
    code: string,
    extra: {
      status?: number;
      validation?: ValidationErrorBody;
      requestId?: string;
      retryAfter?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.code = code;
    this.status = extra.status;
    this.validation = extra.validation;
    this.requestId = extra.requestId;
    this.retryAfter = extra.retryAfter;
  }

  /** 4xx: the request must change before it is sent again. */
  get isClientError(): boolean {
    return this.status !== undefined && this.status >= 400 && this.status < 500;
  }

  /** 5xx: the service (500) or a bank app (502) failed. */
  get isServerError(): boolean {
    return this.status !== undefined && this.status >= 500;
  }

  get isConnectionError(): boolean {
    return this.code === 'connection_error';
  }

  get isTimeout(): boolean {
    return this.code === 'timeout';
  }

  get isAbortError(): boolean {
    return this.code === 'abort_error';
  }

  /** The key was refused: by the client (`invalid_api_key`) or by the API (401). */
  get isInvalidApiKey(): boolean {
    return this.code === 'invalid_api_key' || this.status === 401;
  }
}

export type { AppException };

export function appException(
  message: string,
  code: string,
  extra?: ConstructorParameters<typeof AppException>[2],
): AppException {
  return new AppException(message, code, extra);
}

export function isAppException(err: unknown): err is AppException {
  return err instanceof AppException;
}

/** An error answer: the API's plain-text message, or the 422 validation body. */
export function errorFromAnswer(
  status: number,
  body: string,
  headers: { get(name: string): string | null },
): AppException {
  const text = body.trim();
  const requestId = headers.get('x-request-id') ?? undefined;
  if (status === 422) {
    try {
      const validation = JSON.parse(text) as ValidationErrorBody;
      const message = validation.errors?.[0]?.message ?? validation.message ?? text;
      return new AppException(message, 'unknown', { status, validation, requestId });
    } catch {
      // not the validation body: handled as any other answer below
    }
  }
  // 429: the rate limits; 503 `Service unavailable`: the database is away for a moment.
  const retryAfter = status === 429 || status === 503 ? secondsOf(headers.get('retry-after')) : undefined;
  const plain = text !== '' && !/^[<{[]/.test(text) && text.length <= 1000;
  return new AppException(plain ? text : `HTTP ${status}`, plain ? text : 'unknown', {
    status,
    requestId,
    retryAfter,
  });
}

/** `Retry-After` in seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
function secondsOf(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/**
 * Why `paymentRequests.waitForPayment` stopped without a payment: `timeout` (its `timeout` passed
 * with the request still pending), `cancelled` (the request's invoice became `void`: it will not
 * be paid) or `expired` (the customer's transfer payment ran past its `claimExpiresAt` unpaid and
 * failed with `failureReason` `expired`: they may pay again, with new instructions). Another failed
 * payment attempt does not end the wait: the customer may pay again.
 */
export type PaymentWaitFailure = 'timeout' | 'cancelled' | 'expired';

/** Thrown by `paymentRequests.waitForPayment` when the request will not be (or was not in time) paid. */
export class PaymentWaitError extends Error {
  override readonly name = 'PaymentWaitError';

  constructor(
    readonly reason: PaymentWaitFailure,
    readonly transactionId: string,
    /** The payment request as last read. */
    readonly paymentRequest: unknown,
  ) {
    super(
      reason === 'timeout'
        ? `Payment request "${transactionId}" was not paid in time`
        : reason === 'expired'
          ? `Payment request "${transactionId}" was not paid: the transfer's time ran out`
          : `Payment request "${transactionId}" will not be paid: its invoice is void`,
    );
  }
}

/** Thrown by the webhook helpers when a delivery's signature, timestamp or body is not valid. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}
