import {
  BankAdapter,
  BankAnswer,
  BankUnavailableError,
  ChargeRequest,
  RefundAnswer,
  RefundRequest,
  StatusRequest,
  WRONG_PASS_CODE,
} from './bank';

/** The JSON a gateway answers with (docs/bank-gateway.md). */
interface GatewayCharge {
  reference?: unknown;
  status?: unknown;
  bankReference?: unknown;
  reason?: unknown;
  code?: unknown;
}

/** What the bank says, in `RefundAnswer`'s terms. */
function refundAnswer(httpStatus: number, json: GatewayCharge | null, reference: string): RefundAnswer {
  if (httpStatus !== 200 || !json || json.reference !== reference) {
    throw new BankUnavailableError(`unexpected answer (HTTP ${httpStatus})`, 'error');
  }
  const bankReference = typeof json.bankReference === 'string' ? json.bankReference : null;
  switch (json.status) {
    case 'succeeded':
      return { status: 'succeeded', bankReference };
    case 'pending':
      return { status: 'pending', bankReference };
    case 'failed':
      return {
        status: 'failed',
        reason: typeof json.reason === 'string' ? json.reason.slice(0, 200) : 'failed',
      };
    default:
      throw new BankUnavailableError('unexpected refund status', 'error');
  }
}

/**
 * A Production bank app reached through the bank-gateway protocol of docs/bank-gateway.md:
 * `POST /charges` (idempotent on our payment id) and `GET /charges/:reference`; `POST /refunds`
 * (idempotent on our refund id) and `GET /refunds/:reference`.
 */
export class GatewayBank implements BankAdapter {
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
    return this.answer(res.status, res.json, request.reference);
  }

  async status(charge: StatusRequest, signal: AbortSignal): Promise<BankAnswer> {
    const res = await this.call('GET', `/charges/${encodeURIComponent(charge.reference)}`, signal);
    if (res.status === 404) return { status: 'unknown' };
    if (res.status >= 400 && res.status < 500)
      throw new BankUnavailableError(`status answered ${res.status}`, 'error');
    return this.answer(res.status, res.json, charge.reference);
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
    return refundAnswer(res.status, res.json, request.reference);
  }

  async refundStatus(request: RefundRequest, signal: AbortSignal): Promise<RefundAnswer> {
    const res = await this.call('GET', `/refunds/${encodeURIComponent(request.reference)}`, signal);
    if (res.status === 404) return { status: 'unknown' };
    if (res.status >= 400 && res.status < 500)
      throw new BankUnavailableError(`refund status answered ${res.status}`, 'error');
    return refundAnswer(res.status, res.json, request.reference);
  }

  private answer(httpStatus: number, json: GatewayCharge | null, reference: string): BankAnswer {
    if (httpStatus !== 200 || !json || json.reference !== reference) {
      throw new BankUnavailableError(`unexpected answer (HTTP ${httpStatus})`, 'error');
    }
    const bankReference = typeof json.bankReference === 'string' ? json.bankReference : null;
    switch (json.status) {
      case 'completed':
        return { status: 'completed', bankReference };
      case 'pending':
        return { status: 'pending', bankReference };
      case 'declined':
        return {
          status: 'declined',
          reason: typeof json.reason === 'string' ? json.reason.slice(0, 200) : 'declined',
          ...(json.code === WRONG_PASS_CODE ? { wrongPassCode: true } : {}),
        };
      default:
        throw new BankUnavailableError('unexpected charge status', 'error');
    }
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal,
    body?: object,
    idempotencyKey?: string,
  ): Promise<{ status: number; json: GatewayCharge | null }> {
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
    let json: GatewayCharge | null = null;
    try {
      json = (await res.json()) as GatewayCharge;
    } catch {
      if (signal.aborted) throw new BankUnavailableError('no answer in time', 'timeout');
    }
    return { status: res.status, json };
  }
}
