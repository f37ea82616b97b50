/**
 * A failure the client caused or can act on. Its `code` is what code branches on (a page picks
 * its translation by it); its status and exact message are part of the API. Each domain lists
 * its codes in an enum and maps them to a status and a `Messages` text once, with `domainErrors`;
 * the global filter writes them as plain text.
 */
export class AppError<Code extends string = string> extends Error {
  /** Headers the answer carries besides the message (e.g. `retry-after` on a 429). */
  readonly headers: Record<string, string> = {};

  constructor(
    readonly code: Code,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }

  /** The same error, telling the client when to try again (a whole number of seconds, at least 1). */
  retryAfter(seconds: number): this {
    this.headers['retry-after'] = String(Math.max(1, Math.ceil(seconds)));
    return this;
  }

  /** True when `err` is an AppError with one of these codes. */
  static is(err: unknown, ...codes: string[]): err is AppError {
    return err instanceof AppError && (codes.length === 0 || codes.includes(err.code));
  }
}

/** A code's status and message; a function message takes one argument (the value it names). */
export type ErrorEntry = readonly [status: number, message: string | ((arg: string) => string)];

/**
 * The raise function of a domain's error table:
 *
 *   export enum PaymentError { NotFound = 'payment_not_found', ... }
 *   export const paymentError = domainErrors<PaymentError>({ [PaymentError.NotFound]: [404, Messages.paymentNotFound] });
 *   throw paymentError(PaymentError.NotFound);
 */
export function domainErrors<Code extends string>(table: Record<Code, ErrorEntry>) {
  for (const [code, entry] of Object.entries<ErrorEntry>(table)) registerError(code, entry);
  return (code: Code, arg = ''): AppError<Code> => {
    const [status, message] = table[code];
    return new AppError(code, status, typeof message === 'function' ? message(arg) : message);
  };
}

/** Every code of every domain's table, so the OpenAPI document can list a route's answers by code. */
const REGISTERED = new Map<string, ErrorEntry>();

function registerError(code: string, entry: ErrorEntry): void {
  const known = REGISTERED.get(code);
  if (known && (known[0] !== entry[0] || known[1] !== entry[1]))
    throw new Error(`Error code "${code}" is declared twice with different answers`);
  REGISTERED.set(code, entry);
}

/** The status and message of a code declared with `domainErrors`. */
export function errorEntry(code: string): ErrorEntry {
  const entry = REGISTERED.get(code);
  if (!entry) throw new Error(`Error code "${code}" is not declared by any domainErrors table`);
  return entry;
}
