import {
  BankAdapter,
  BankAnswer,
  BankUnavailableError,
  ChargeRequest,
  RefundAnswer,
  RefundRequest,
  StatusRequest,
  TransferAdapter,
  TransferAnswer,
  TransferRequest,
  WRONG_PASS_CODE,
} from './bank';

/** The JSON a gateway answers with, whatever the operation (docs/bank-gateway.md). */
interface GatewayJson {
  reference?: unknown;
  status?: unknown;
  bankReference?: unknown;
  reason?: unknown;
  /** A charge's refusal with `wrong_pass_code`: the customer's pass code was wrong (Bankily). */
  code?: unknown;
}

/** One answer of `GET /transfers?since=`: the transfers as sent (unvalidated) and the next cursor. */
export interface IncomingTransfersPage {
  transfers: unknown[];
  cursor: string;
  /** More transfers wait after `cursor`: ask again at once. */
  hasMore: boolean;
}

/** An HTTP answer below 500 (a 5xx, silence or a broken connection has thrown). */
interface GatewayResponse {
  status: number;
  json: GatewayJson | null;
}

/**
 * An operation's three outcomes as the gateway names them, which are the names of our answers:
 * done (with the bank's reference), still pending (idem), failed (with a reason).
 */
type Outcomes<Done extends string, Pending extends string, Failed extends string> = readonly [
  done: Done,
  pending: Pending,
  failed: Failed,
];

type AnswerOf<Done extends string, Pending extends string, Failed extends string> =
  { status: Done | Pending; bankReference: string | null } | { status: Failed; reason: string };

const CHARGE = ['completed', 'pending', 'declined'] as const;
const REFUND = ['succeeded', 'pending', 'failed'] as const;
const TRANSFER = ['paid', 'in_transit', 'failed'] as const;

/**
 * The one client of the bank-gateway protocol (docs/bank-gateway.md): charges (`POST /charges`,
 * idempotent on our payment id, and `GET /charges/:reference`), refunds (`POST /refunds`, on our
 * refund id, and `GET /refunds/:reference`) and transfers (`POST /transfers`, on our payout id).
 * One way to call the gateway (its key, the idempotency header, what a 5xx, silence or a broken
 * connection mean) and one way to read its answer, whatever the operation.
 */
export class BankGatewayClient implements BankAdapter, TransferAdapter {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey?: string,
  ) {}

  async charge(request: ChargeRequest, signal: AbortSignal): Promise<BankAnswer> {
    const body = {
      reference: request.reference,
      amount: request.amount,
      currency: 'MRU',
      phoneNumber: request.phoneNumber,
      description: request.description,
      ...(request.passCode !== undefined ? { passCode: request.passCode } : {}),
    };
    const res = await this.call('POST', '/charges', signal, body, request.reference);
    if (res.status >= 400 && res.status < 500)
      return { status: 'declined', reason: `bank answered ${res.status}` };
    const answer = answerOf(res, request.reference, 'charge', CHARGE);
    return answer.status === 'declined' && res.json?.code === WRONG_PASS_CODE
      ? { ...answer, wrongPassCode: true }
      : answer;
  }

  async status(charge: StatusRequest, signal: AbortSignal): Promise<BankAnswer> {
    const res = await this.call('GET', `/charges/${encodeURIComponent(charge.reference)}`, signal);
    if (res.status === 404) return { status: 'unknown' };
    if (res.status >= 400 && res.status < 500)
      throw new BankUnavailableError(`status answered ${res.status}`, 'error');
    return answerOf(res, charge.reference, 'charge', CHARGE);
  }

  async refund(request: RefundRequest, signal: AbortSignal): Promise<RefundAnswer> {
    const body = {
      reference: request.reference,
      chargeReference: request.chargeReference,
      amount: request.amount,
      currency: 'MRU',
      phoneNumber: request.phoneNumber,
    };
    const res = await this.call('POST', '/refunds', signal, body, request.reference);
    if (res.status >= 400 && res.status < 500)
      return { status: 'failed', reason: `bank answered ${res.status}` };
    return answerOf(res, request.reference, 'refund', REFUND);
  }

  async refundStatus(request: RefundRequest, signal: AbortSignal): Promise<RefundAnswer> {
    const res = await this.call('GET', `/refunds/${encodeURIComponent(request.reference)}`, signal);
    if (res.status === 404) return { status: 'unknown' };
    if (res.status >= 400 && res.status < 500)
      throw new BankUnavailableError(`refund status answered ${res.status}`, 'error');
    return answerOf(res, request.reference, 'refund', REFUND);
  }

  /** Sends the transfer, or (the same reference again) answers its current state. */
  async transfer(request: TransferRequest, signal: AbortSignal): Promise<TransferAnswer> {
    const res = await this.call(
      'POST',
      '/transfers',
      signal,
      { ...request, currency: 'MRU' },
      request.reference,
    );
    if (res.status >= 400)
      return { status: 'failed', reason: `gateway refused the transfer (${res.status})` };
    return answerOf(res, request.reference, 'transfer', TRANSFER);
  }

  /**
   * `GET /transfers?since=<cursor>`: the incoming transfers the bank received after `since` (from
   * the first without one), oldest first, and the cursor to ask from next (docs/bank-gateway.md
   * "Incoming transfers"). The items are handed over as sent: the caller validates each.
   */
  async incomingTransfers(since: string | null, signal: AbortSignal): Promise<IncomingTransfersPage> {
    const query = since === null ? '' : `?since=${encodeURIComponent(since)}`;
    const res = await this.call('GET', `/transfers${query}`, signal);
    const json = res.json as { transfers?: unknown; cursor?: unknown; hasMore?: unknown } | null;
    if (res.status !== 200 || !json || !Array.isArray(json.transfers) || typeof json.cursor !== 'string')
      throw new BankUnavailableError(`unexpected answer to GET /transfers (HTTP ${res.status})`, 'error');
    return {
      transfers: json.transfers as unknown[],
      cursor: json.cursor.slice(0, 200),
      hasMore: json.hasMore === true,
    };
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal,
    body?: object,
    idempotencyKey?: string,
  ): Promise<GatewayResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let res: Response;
    try {
      res = await fetch(new URL(path.replace(/^\//, ''), this.baseUrl.replace(/\/?$/, '/')), {
        method,
        headers,
        body: body ? JSON.stringify(body) : undefined,
        signal,
      });
    } catch (err) {
      if (signal.aborted) throw new BankUnavailableError('no answer in time', 'timeout');
      throw new BankUnavailableError(`connection failed: ${(err as Error).message}`, 'error');
    }
    if (res.status >= 500) {
      await res.body?.cancel().catch(() => undefined);
      throw new BankUnavailableError(`bank answered ${res.status}`, 'error');
    }
    let json: GatewayJson | null = null;
    try {
      json = (await res.json()) as GatewayJson;
    } catch {
      if (signal.aborted) throw new BankUnavailableError('no answer in time', 'timeout');
    }
    return { status: res.status, json };
  }
}

/**
 * A 200 answer about `reference`, read the one way every operation is: its status one of the
 * operation's outcomes, the bank's reference and a failure's reason cut to 200 characters. Anything
 * else (another status code, no JSON, another reference, an unknown status) is no usable answer.
 */
function answerOf<Done extends string, Pending extends string, Failed extends string>(
  res: GatewayResponse,
  reference: string,
  operation: string,
  [done, pending, failed]: Outcomes<Done, Pending, Failed>,
): AnswerOf<Done, Pending, Failed> {
  const json = res.json;
  if (res.status !== 200 || !json || json.reference !== reference)
    throw new BankUnavailableError(`unexpected answer (HTTP ${res.status})`, 'error');
  const bankReference = typeof json.bankReference === 'string' ? json.bankReference.slice(0, 200) : null;
  if (json.status === done) return { status: done, bankReference };
  if (json.status === pending) return { status: pending, bankReference };
  if (json.status === failed)
    return { status: failed, reason: typeof json.reason === 'string' ? json.reason.slice(0, 200) : failed };
  throw new BankUnavailableError(`unexpected ${operation} status`, 'error');
}
