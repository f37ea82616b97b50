import { setTimeout as pause } from 'node:timers/promises';

/** One answer a client got (status 0: no answer, the connection failed or hung past the client's limit). */
export interface Answer {
  instance: number;
  path: string;
  status: number;
  text: string;
  retryAfter: string | null;
  at: number;
  ms: number;
}

export interface LoadTenant {
  secretKey: string;
  publishableKey: string;
  /** The Masrivi payment method's id (pays at once in Sandbox). */
  methodId: string;
}

/**
 * Merchants' clients creating payment requests and paying them, spread over several instances
 * (worker n talks to instance n mod count), recording every answer: what a failover must keep
 * (every 200 is committed) and what it may cost (503 with Retry-After, never 500, never a hang).
 * With `cycleMs`, each worker starts a create + pay at most that often: a constant offered load,
 * so that the throughput before and after a failover compare what the service serves, not what
 * the rest of a shared machine leaves it at that moment (a browser suite starting in the other
 * worker halved an unpaced load's rate).
 */
export class PaymentLoad {
  readonly answers: Answer[] = [];
  /** Payment requests answered 200. */
  readonly created: string[] = [];
  /** Payments answered 200, with when their answer came. */
  readonly paid: { id: string; at: number }[] = [];
  private running = false;
  private workers: Promise<void>[] = [];

  constructor(
    private readonly bases: string[],
    private readonly tenant: LoadTenant,
    private readonly tag: string,
    private readonly options: {
      /** A client gives up after this long (recorded as status 0); 30 s by default. */
      clientTimeoutMs?: number;
      /** Each worker starts a cycle (create, then pay) at most this often; back to back by default. */
      cycleMs?: number;
    } = {},
  ) {}

  start(workers: number): void {
    this.running = true;
    this.workers = Array.from({ length: workers }, (_, n) => this.work(n));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  /** Payments completed (answered 200) per second over [from, to). */
  payRate(from: number, to: number): number {
    return this.paid.filter((p) => p.at >= from && p.at < to).length / ((to - from) / 1000);
  }

  /** The first payment request instance `instance` created whose request started after `after`. */
  firstCreatedAfter(instance: number, after: number): Answer | undefined {
    return this.answers.find(
      (a) =>
        a.instance === instance && a.at >= after && a.path === '/api/v1/payment-request' && a.status === 200,
    );
  }

  private async work(worker: number): Promise<void> {
    const instance = worker % this.bases.length;
    for (let i = 0; this.running; i++) {
      const cycleStarted = Date.now();
      await this.cycle(instance, `${this.tag}-${worker}-${i}`);
      // Not catching up after a slow cycle: the offered rate stays at most one per cycleMs.
      const rest = (this.options.cycleMs ?? 0) - (Date.now() - cycleStarted);
      if (rest > 0 && this.running) await pause(rest);
    }
  }

  /** One client's payment request, then its payment when it was created. */
  private async cycle(instance: number, transactionId: string): Promise<void> {
    const c = await this.call(instance, '/api/v1/payment-request', this.tenant.secretKey, {
      transactionId,
      amount: 1500,
    });
    if (c.status !== 200) {
      // A client backing off a little after a refusal, so the load does not spin on a shared machine.
      await pause(100);
      return;
    }
    this.created.push(c.id);
    const p = await this.call(instance, '/api/v1/payment', this.tenant.publishableKey, {
      transactionId,
      phoneNumber: '22222222',
      passCode: '',
      configurationId: this.tenant.methodId,
    });
    if (p.status === 200) this.paid.push({ id: p.id, at: Date.now() });
  }

  private async call(
    instance: number,
    path: string,
    key: string,
    body: object,
  ): Promise<{ status: number; id: string }> {
    const started = Date.now();
    let res: Response;
    try {
      res = await fetch(this.bases[instance] + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: key },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.clientTimeoutMs ?? 30_000),
      });
    } catch (err) {
      this.answers.push({
        instance,
        path,
        status: 0,
        text: String(err),
        retryAfter: null,
        at: started,
        ms: Date.now() - started,
      });
      return { status: 0, id: '' };
    }
    const text = await res.text();
    const answer = {
      instance,
      path,
      status: res.status,
      text,
      retryAfter: res.headers.get('retry-after'),
      at: started,
      ms: Date.now() - started,
    };
    this.answers.push(answer);
    return {
      status: res.status,
      id: res.status === 200 ? (JSON.parse(text) as { data: { id: string } }).data.id : '',
    };
  }
}

/** What a fault cost, for the test's assertions and the figures it prints. */
export function summarize(answers: Answer[], from: number): Record<string, number> {
  const during = answers.filter((a) => a.at >= from);
  const count = (status: number) => during.filter((a) => a.status === status).length;
  return {
    answers: during.length,
    ok: count(200),
    unavailable: count(503),
    errors: during.filter((a) => a.status !== 200 && a.status !== 503).length,
    slowestMs: Math.max(0, ...during.map((a) => a.ms)),
  };
}
