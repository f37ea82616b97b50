import { appException, isAppException, PaymentWaitError } from './errors';
import { listPromise, ListPromise } from './pagination';
import { ClientOptions, RequestOptions, Transport } from './transport';
import type {
  Operations,
  CreateCheckoutSessionParams,
  ListAccountsParams,
  ListCustomersParams,
  ListInvoicesParams,
  ListBalanceTransactionsParams,
  ListPayoutsParams,
  ListRefundsParams,
  SettlementReportParams,
  ListPaymentLinksParams,
  ListCouponsParams,
  ListTestClocksParams,
  ListTransfersParams,
  ListPaymentRequestsParams,
  ListPaymentsParams,
  ListProductsParams,
  ListSubscriptionsParams,
  ListWebhookDeliveriesParams,
  ListWebhookEndpointsParams,
  PayParams,
} from './types';
import { constructEvent, verifyWebhook, verifyWebhookSignature } from './webhooks';

type Body<K extends keyof Operations> = Operations[K]['body'];
type Data<K extends keyof Operations> = Operations[K]['response'] extends { data: infer D } ? D : never;
type Item<K extends keyof Operations> = Data<K> extends Array<infer T> ? T : never;

const unwrap = <T extends { data: unknown }>(res: T): T['data'] => res.data;

abstract class Resource {
  constructor(protected readonly t: Transport) {}

  /** A list method: one page awaited, every item of every page iterated. */
  protected paged<K extends keyof Operations>(
    route: K,
    query: { page?: number } | undefined,
    options: RequestOptions | undefined,
  ): ListPromise<Item<K>> {
    return listPromise(
      (page) => this.t.call(route, { query: { ...query, page } } as never, 'read', options) as never,
      query?.page ?? 1,
    );
  }
}

/** How `paymentRequests.waitForPayment` waits. */
export interface WaitForPaymentOptions {
  /** Milliseconds before it gives up with `PaymentWaitError` `timeout`. Default 600 000 (10 minutes). */
  timeout?: number;
  /** Stops the wait with an `AppException` `abort_error`. */
  signal?: AbortSignal;
  /** The first wait between look-ups, in milliseconds (default 1 000); each next one is twice as long. */
  interval?: number;
  /** The longest wait between look-ups, in milliseconds (default 10 000). */
  maxInterval?: number;
}

export class PaymentRequests extends Resource {
  /**
   * Creates a payment request (secret key). When the call fails without a clear answer (time-out,
   * lost connection, 5xx), it first looks the request up by transactionId and creates it again
   * only if that is 404. Reuse one transactionId per order.
   */
  async create(
    params: Body<'POST /payment-request'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /payment-request'>> {
    let retrying = false;
    const lookUp = async () => {
      try {
        return await this.t.call(
          'GET /payment-request/by-transaction/{transactionId}',
          { params: { transactionId: params.transactionId } },
          'read',
          { ...options, maxRetries: 0 },
        );
      } catch (err) {
        if (isAppException(err) && err.status === 404) return undefined;
        throw err;
      }
    };
    try {
      return unwrap(
        await this.t.call(
          'POST /payment-request',
          {
            body: params,
            recover: async () => {
              retrying = true;
              return (await lookUp()) as Operations['POST /payment-request']['response'] | undefined;
            },
          },
          'safe-write',
          options,
        ),
      );
    } catch (err) {
      // A retry that meets 409: the first attempt created it after all.
      if (retrying && isAppException(err) && err.status === 409) {
        const found = await lookUp();
        if (found) return found.data as Data<'POST /payment-request'>;
      }
      throw err;
    }
  }

  /** A payment request by id (secret key). */
  async get(id: string, options?: RequestOptions): Promise<Data<'GET /payment-request/{id}'>> {
    return unwrap(await this.t.call('GET /payment-request/{id}', { params: { id } }, 'read', options));
  }

  /** Look-up by transactionId (either key; a publishable key sees id, amount and phoneNumber). */
  async getByTransactionId(
    transactionId: string,
    options?: RequestOptions,
  ): Promise<Data<'GET /payment-request/by-transaction/{transactionId}'>> {
    return unwrap(
      await this.t.call(
        'GET /payment-request/by-transaction/{transactionId}',
        { params: { transactionId } },
        'read',
        options,
      ),
    );
  }

  list(
    params?: ListPaymentRequestsParams,
    options?: RequestOptions,
  ): ListPromise<Item<'GET /payment-request'>> {
    return this.paged('GET /payment-request', params, options);
  }

  /**
   * Waits until the payment request of `transactionId` is paid (secret key) and returns it. Looks
   * it up at once, then after 1 s, then twice as long each time up to `maxInterval`. Throws
   * `PaymentWaitError` with `reason` `timeout` when `timeout` passes first, or `cancelled` when the
   * request's invoice becomes `void`, or `expired` when its newest payment is a transfer payment
   * that ran past its `claimExpiresAt` (failed, `failureReason` `expired`) since the wait began;
   * an `AppException` `abort_error` when `signal` aborts; and the look-up's own errors (404 for an
   * unknown transactionId). Another failed payment attempt does not end the wait: the customer may
   * pay again. For fulfilling orders, the webhook is the proof of payment.
   */
  async waitForPayment(
    transactionId: string,
    options: WaitForPaymentOptions = {},
  ): Promise<Data<'GET /payment-request/{id}'>> {
    const { signal } = options;
    const timeout = options.timeout ?? 600_000;
    const maxInterval = options.maxInterval ?? 10_000;
    // One signal for every look-up and wait: the caller's abort, or the time-out.
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) stop.abort();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop.abort();
    }, timeout);
    let last: unknown;
    // The expired payments already there when the wait began (an earlier attempt) do not end it.
    let expiredBefore: Set<string> | undefined;
    try {
      for (let delay = options.interval ?? 1000; ; delay = Math.min(delay * 2, maxInterval)) {
        const request = await this.getByTransactionId(transactionId, { signal: stop.signal });
        last = request;
        if (!('status' in request))
          throw appException('waitForPayment needs a secret key (sk_…)', 'invalid_api_key');
        if (request.status === 'paid') return request;
        // The request's newest payment (its attempts are listed newest first), if any.
        const [newest] = (
          await this.t.call('GET /payment', { query: { transactionId, limit: 1 } }, 'read', {
            signal: stop.signal,
          })
        ).data;
        const expired =
          newest?.status === 'failed' && newest.failureReason === 'expired' ? newest.id : undefined;
        if (expiredBefore === undefined) expiredBefore = new Set(expired ? [expired] : []);
        else if (expired && !expiredBefore.has(expired))
          throw new PaymentWaitError('expired', transactionId, request);
        if (request.invoiceId) {
          const invoice = await this.t.call(
            'GET /invoices/{id}',
            { params: { id: request.invoiceId } },
            'read',
            { signal: stop.signal },
          );
          if (invoice.data.status === 'void') throw new PaymentWaitError('cancelled', transactionId, request);
        }
        await this.t.wait(delay, stop.signal);
      }
    } catch (err) {
      if (timedOut && !signal?.aborted && isAppException(err) && err.isAbortError)
        throw new PaymentWaitError('timeout', transactionId, last);
      throw err;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Asks the bank about the request's pending payments, then returns the request. */
  async refreshStatus(
    transactionId: string,
    options?: RequestOptions,
  ): Promise<Data<'PATCH /payment-request/{transactionId}/refresh-status'>> {
    return unwrap(
      await this.t.call(
        'PATCH /payment-request/{transactionId}/refresh-status',
        { params: { transactionId } },
        'read',
        options,
      ),
    );
  }
}

export class Payments extends Resource {
  /**
   * Pays a payment request through a bank app (either key). A 502 is the bank's refusal: show the
   * message to the customer; it is never retried. With idempotency (the default) a payment whose
   * answer was lost is retried with the same Idempotency-Key, which never charges twice; without
   * it a payment is never resubmitted: check the request's payments or wait for the webhook.
   */
  async pay(
    params: PayParams,
    options?: RequestOptions,
  ): Promise<
    Data<'POST /payment'> & { instructions: Operations['POST /payment']['response']['instructions'] }
  > {
    const body = {
      transactionId: params.transactionId,
      phoneNumber: params.phoneNumber,
      passCode: params.passCode ?? '',
      configurationId: params.paymentMethodId,
    };
    const answer = await this.t.call('POST /payment', { body }, 'pay', options);
    // A transfer payment's instructions (where and how much the customer sends), null otherwise.
    return { ...unwrap(answer), instructions: answer.instructions ?? null };
  }

  /** A payment by id (secret key). */
  async get(id: string, options?: RequestOptions): Promise<Data<'GET /payment/{id}'>> {
    return unwrap(await this.t.call('GET /payment/{id}', { params: { id } }, 'read', options));
  }

  list(params?: ListPaymentsParams, options?: RequestOptions): ListPromise<Item<'GET /payment'>> {
    return this.paged('GET /payment', params, options);
  }

  /** A payment's status alone (secret key): `{ data: { id, status, referenceId }, ...the same }`. */
  async getStatus(
    id: string,
    options?: RequestOptions,
  ): Promise<Operations['GET /payment/{id}/status']['response']> {
    return this.t.call('GET /payment/{id}/status', { params: { id } }, 'read', options);
  }

  /** Sandbox only: the customer's bank settles a pending payment (`completed` by default). */
  async simulateTransfer(
    id: string,
    params: Body<'POST /payment/{id}/simulate-transfer'> = {},
    options?: RequestOptions,
  ): Promise<Data<'POST /payment/{id}/simulate-transfer'>> {
    return unwrap(
      await this.t.call(
        'POST /payment/{id}/simulate-transfer',
        { params: { id }, body: params },
        'write',
        options,
      ),
    );
  }
}

export class PaymentMethods extends Resource {
  /** The bank apps enabled for the key's environment (either key). `isTestingMode` has no effect. */
  async list(
    params: { isTestingMode?: boolean } = {},
    options?: RequestOptions,
  ): Promise<Data<'GET /configuration'>> {
    const query = params.isTestingMode === undefined ? {} : { isTestingMode: String(params.isTestingMode) };
    return unwrap(await this.t.call('GET /configuration', { query }, 'read', options));
  }

  /** One enabled bank app of the key's environment (either key); 404 `Payment method not found` otherwise. */
  async get(id: string, options?: RequestOptions): Promise<Data<'GET /configuration/{id}'>> {
    return unwrap(await this.t.call('GET /configuration/{id}', { params: { id } }, 'read', options));
  }

  /**
   * Turns the transfer method (GIMTEL: any wallet of the national switch) on or off and sets its
   * receiving wallet (secret key). Sandbox's wallet is preset, so `{ enabled: true }` suffices there.
   */
  async configureGimtel(
    params: Body<'PUT /configuration/gimtel'>,
    options?: RequestOptions,
  ): Promise<Data<'PUT /configuration/gimtel'>> {
    return unwrap(await this.t.call('PUT /configuration/gimtel', { body: params }, 'write', options));
  }
}

/** The transfers received on the environment's receiving wallet (secret key). */
export class Transfers extends Resource {
  list(params?: ListTransfersParams, options?: RequestOptions): ListPromise<Item<'GET /transfers'>> {
    return this.paged('GET /transfers', params, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Data<'GET /transfers/{id}'>> {
    return unwrap(await this.t.call('GET /transfers/{id}', { params: { id } }, 'read', options));
  }

  /** An unmatched transfer pays an unpaid payment request of its amount. */
  async assign(
    id: string,
    params: Body<'POST /transfers/{id}/assign'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /transfers/{id}/assign'>> {
    return unwrap(
      await this.t.call('POST /transfers/{id}/assign', { params: { id }, body: params }, 'write', options),
    );
  }

  /** Marks an unmatched transfer returned (you sent the money back). */
  async return(id: string, options?: RequestOptions): Promise<Data<'POST /transfers/{id}/return'>> {
    return unwrap(await this.t.call('POST /transfers/{id}/return', { params: { id } }, 'write', options));
  }

  /** Sandbox only: injects an incoming transfer to the environment's receiving wallet. */
  async simulate(
    params: Body<'POST /sandbox/transfers'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /sandbox/transfers'>> {
    return unwrap(await this.t.call('POST /sandbox/transfers', { body: params }, 'write', options));
  }
}

export class CheckoutSessions extends Resource {
  /**
   * Creates a hosted payment page (secret key); redirect the customer to `checkoutUrl`. Safe to
   * retry: the same transactionId reuses its payment request and open session.
   * Fulfil the order on the payment webhook, never on reaching successUrl.
   */
  async create(
    params: CreateCheckoutSessionParams,
    options?: RequestOptions,
  ): Promise<Operations['POST /checkout-session']['response']> {
    return this.t.call('POST /checkout-session', { body: params }, 'safe-write', options);
  }

  /** A session and its checkoutUrl (secret key). */
  async get(
    id: string,
    options?: RequestOptions,
  ): Promise<Operations['GET /checkout-session/{id}']['response']> {
    return this.t.call('GET /checkout-session/{id}', { params: { id } }, 'read', options);
  }

  /** Expires an open session (409 `Checkout session is not open` otherwise). */
  async expire(id: string, options?: RequestOptions): Promise<Data<'POST /checkout-session/{id}/expire'>> {
    return unwrap(
      await this.t.call('POST /checkout-session/{id}/expire', { params: { id } }, 'write', options),
    );
  }

  /** What the hosted page shows (no key needed): amount, status, merchant name, methods. */
  async getPublic(id: string, options?: RequestOptions): Promise<Data<'GET /checkout-session/public/{id}'>> {
    return unwrap(
      await this.t.call('GET /checkout-session/public/{id}', { params: { id } }, 'read', options),
    );
  }

  /**
   * The public view with what a checkout screen of your own needs (no key needed): the session,
   * the merchant, the payment request, the payment methods, the newest payment and the environment.
   */
  async getPublicView(
    id: string,
    options?: RequestOptions,
  ): Promise<Operations['GET /checkout-session/public/{id}']['response']> {
    return this.t.call('GET /checkout-session/public/{id}', { params: { id } }, 'read', options);
  }

  /**
   * Pays the session from a checkout screen of your own (no key needed): the hosted page's pay,
   * with its rules and answers (a 502 is the bank's refusal). Retried like `payments.pay`, with
   * an Idempotency-Key in the session's namespace.
   */
  async pay(
    id: string,
    params: { paymentMethodId: string; phoneNumber?: string; passCode?: string },
    options?: RequestOptions,
  ): Promise<Operations['POST /checkout-session/public/{id}/pay']['response']> {
    const body = {
      configurationId: params.paymentMethodId,
      ...(params.phoneNumber === undefined ? {} : { phoneNumber: params.phoneNumber }),
      ...(params.passCode === undefined ? {} : { passCode: params.passCode }),
    };
    return this.t.call('POST /checkout-session/public/{id}/pay', { params: { id }, body }, 'pay', options);
  }

  /** Records the bank app the customer chose (409 while a payment is with the bank); the public view. */
  async switchMethod(
    id: string,
    paymentMethodId: string,
    options?: RequestOptions,
  ): Promise<Operations['POST /checkout-session/public/{id}/switch-method']['response']> {
    return this.t.call(
      'POST /checkout-session/public/{id}/switch-method',
      { params: { id }, body: { configurationId: paymentMethodId } },
      'write',
      options,
    );
  }

  /** Sandbox only: the customer's bank completes a pending payment of the session (no key needed). */
  async simulateTransfer(
    id: string,
    paymentId: string,
    options?: RequestOptions,
  ): Promise<Operations['POST /checkout-session/public/{id}/simulate-transfer']['response']> {
    return this.t.call(
      'POST /checkout-session/public/{id}/simulate-transfer',
      { params: { id }, body: { paymentId } },
      'write',
      options,
    );
  }

  /** The session's and its latest payment's status (no key needed). */
  async getPaymentStatus(
    id: string,
    options?: RequestOptions,
  ): Promise<Data<'GET /checkout-session/public/{id}/payment-status'>> {
    return unwrap(
      await this.t.call(
        'GET /checkout-session/public/{id}/payment-status',
        { params: { id } },
        'read',
        options,
      ),
    );
  }
}

/**
 * Payment links (docs/payment-links.md): a page at `url` where any customer pays, shared on
 * WhatsApp (`whatsappUrl`) or as a QR code (`qrCodeUrl`; `<url>/qr.png?size=` for a PNG).
 */
export class PaymentLinks extends Resource {
  /** A fixed `amount`, or none (the customer types it, between `minAmount` and `maxAmount`). */
  async create(
    params: Body<'POST /payment-links'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /payment-links'>> {
    return unwrap(await this.t.call('POST /payment-links', { body: params }, 'write', options));
  }

  list(params?: ListPaymentLinksParams, options?: RequestOptions): ListPromise<Item<'GET /payment-links'>> {
    return this.paged('GET /payment-links', params, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Data<'GET /payment-links/{id}'>> {
    return unwrap(await this.t.call('GET /payment-links/{id}', { params: { id } }, 'read', options));
  }

  /** Name, description, active, maxPayments, expiresAt, successMessage (null clears); never the amount. */
  async update(
    id: string,
    params: Body<'PATCH /payment-links/{id}'>,
    options?: RequestOptions,
  ): Promise<Data<'PATCH /payment-links/{id}'>> {
    return unwrap(
      await this.t.call('PATCH /payment-links/{id}', { params: { id }, body: params }, 'safe-write', options),
    );
  }

  /** Deactivates a link: its page answers 410 (`update(id, { active: true })` reactivates it). */
  deactivate(id: string, options?: RequestOptions): Promise<Data<'PATCH /payment-links/{id}'>> {
    return this.update(id, { active: false }, options);
  }
}

export class Coupons extends Resource {
  /** Exactly one of `percentOff` and `amountOff`; `duration` once, repeating (`durationInPeriods`) or forever. */
  async create(params: Body<'POST /coupons'>, options?: RequestOptions): Promise<Data<'POST /coupons'>> {
    return unwrap(await this.t.call('POST /coupons', { body: params }, 'write', options));
  }

  list(params?: ListCouponsParams, options?: RequestOptions): ListPromise<Item<'GET /coupons'>> {
    return this.paged('GET /coupons', params, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Data<'GET /coupons/{id}'>> {
    return unwrap(await this.t.call('GET /coupons/{id}', { params: { id } }, 'read', options));
  }

  /** An archived coupon is no longer applied; subscriptions it discounts keep their discount. */
  async archive(id: string, options?: RequestOptions): Promise<Data<'POST /coupons/{id}/archive'>> {
    return unwrap(await this.t.call('POST /coupons/{id}/archive', { params: { id } }, 'write', options));
  }
}

/**
 * Sandbox test clocks (docs/billing.md "Testing with test clocks"): customers created with
 * `testClockId` live at the clock's time, with their subscriptions and invoices; `advance` moves it
 * forward (by at most two years) and answers at once, `advancing`, then `ready`.
 */
export class TestClocks extends Resource {
  async create(
    params: Body<'POST /test-clocks'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /test-clocks'>> {
    return unwrap(await this.t.call('POST /test-clocks', { body: params }, 'write', options));
  }

  list(params?: ListTestClocksParams, options?: RequestOptions): ListPromise<Item<'GET /test-clocks'>> {
    return this.paged('GET /test-clocks', params, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Data<'GET /test-clocks/{id}'>> {
    return unwrap(await this.t.call('GET /test-clocks/{id}', { params: { id } }, 'read', options));
  }

  /** Advances the clock to `frozenTime`; the answer is at once (`advancing`): `get` it until `ready`. */
  async advance(
    id: string,
    params: Body<'POST /test-clocks/{id}/advance'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /test-clocks/{id}/advance'>> {
    return unwrap(
      await this.t.call('POST /test-clocks/{id}/advance', { params: { id }, body: params }, 'write', options),
    );
  }

  /** Deletes the clock with its customers and their subscriptions, invoices and payment requests. */
  async delete(id: string, options?: RequestOptions): Promise<Data<'DELETE /test-clocks/{id}'>> {
    return unwrap(await this.t.call('DELETE /test-clocks/{id}', { params: { id } }, 'write', options));
  }
}

export class Products extends Resource {
  list(params?: ListProductsParams, options?: RequestOptions): ListPromise<Item<'GET /products'>> {
    return this.paged('GET /products', params, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Data<'GET /products/{id}'>> {
    return unwrap(await this.t.call('GET /products/{id}', { params: { id } }, 'read', options));
  }

  async create(params: Body<'POST /products'>, options?: RequestOptions): Promise<Data<'POST /products'>> {
    return unwrap(await this.t.call('POST /products', { body: params }, 'write', options));
  }

  async update(
    id: string,
    params: Body<'PATCH /products/{id}'>,
    options?: RequestOptions,
  ): Promise<Data<'PATCH /products/{id}'>> {
    return unwrap(
      await this.t.call('PATCH /products/{id}', { params: { id }, body: params }, 'write', options),
    );
  }

  /** Archives a product: it leaves lists and look-ups; its prices and subscriptions are unchanged. */
  async archive(id: string, options?: RequestOptions): Promise<Data<'PATCH /products/{id}/archive'>> {
    return unwrap(await this.t.call('PATCH /products/{id}/archive', { params: { id } }, 'write', options));
  }
}

export class Prices extends Resource {
  async get(id: string, options?: RequestOptions): Promise<Data<'GET /prices/{id}'>> {
    return unwrap(await this.t.call('GET /prices/{id}', { params: { id } }, 'read', options));
  }

  async create(params: Body<'POST /prices'>, options?: RequestOptions): Promise<Data<'POST /prices'>> {
    return unwrap(await this.t.call('POST /prices', { body: params }, 'write', options));
  }

  /** `replaceExisting: true` archives this price and returns a new one; subscriptions on it keep it. */
  async update(
    id: string,
    params: Body<'PATCH /prices/{id}'>,
    options?: RequestOptions,
  ): Promise<Data<'PATCH /prices/{id}'>> {
    return unwrap(
      await this.t.call('PATCH /prices/{id}', { params: { id }, body: params }, 'write', options),
    );
  }

  async archive(id: string, options?: RequestOptions): Promise<Data<'PATCH /prices/{id}/archive'>> {
    return unwrap(await this.t.call('PATCH /prices/{id}/archive', { params: { id } }, 'write', options));
  }
}

export class Customers extends Resource {
  list(params?: ListCustomersParams, options?: RequestOptions): ListPromise<Item<'GET /customers'>> {
    return this.paged('GET /customers', params, options);
  }

  async create(params: Body<'POST /customers'>, options?: RequestOptions): Promise<Data<'POST /customers'>> {
    return unwrap(await this.t.call('POST /customers', { body: params }, 'write', options));
  }

  async update(
    id: string,
    params: Body<'PATCH /customers/{id}'>,
    options?: RequestOptions,
  ): Promise<Data<'PATCH /customers/{id}'>> {
    return unwrap(
      await this.t.call('PATCH /customers/{id}', { params: { id }, body: params }, 'write', options),
    );
  }
}

export class Subscriptions extends Resource {
  list(params?: ListSubscriptionsParams, options?: RequestOptions): ListPromise<Item<'GET /subscriptions'>> {
    return this.paged('GET /subscriptions', params, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Data<'GET /subscriptions/{id}'>> {
    return unwrap(await this.t.call('GET /subscriptions/{id}', { params: { id } }, 'read', options));
  }

  async create(
    params: Body<'POST /subscriptions'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /subscriptions'>> {
    return unwrap(await this.t.call('POST /subscriptions', { body: params }, 'write', options));
  }

  /** Subscribes the merchant's user, creating the customer if needed (and updating its phone). */
  async createByExternalUser(
    params: Body<'POST /subscriptions/by-external-user'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /subscriptions/by-external-user'>> {
    return unwrap(
      await this.t.call('POST /subscriptions/by-external-user', { body: params }, 'write', options),
    );
  }

  /** The user's newest current subscription, else their newest of any status. */
  async getByExternalUser(
    externalUserId: string,
    options?: RequestOptions,
  ): Promise<Data<'GET /subscriptions/by-external-user/{externalUserId}'>> {
    return unwrap(
      await this.t.call(
        'GET /subscriptions/by-external-user/{externalUserId}',
        { params: { externalUserId } },
        'read',
        options,
      ),
    );
  }

  /** Cancels now (unpaid invoices become void), or at the period's end with `atPeriodEnd: true`. */
  async cancel(
    id: string,
    params: Body<'POST /subscriptions/{id}/cancel'> = {},
    options?: RequestOptions,
  ): Promise<Data<'POST /subscriptions/{id}/cancel'>> {
    return unwrap(
      await this.t.call(
        'POST /subscriptions/{id}/cancel',
        { params: { id }, body: params },
        'write',
        options,
      ),
    );
  }

  /**
   * Changes the price and/or quantity: now (default; the rest of the period prorated: an invoice
   * when up, a credit to the customer when down, unless `prorate: false`) or at `at: "period_end"`.
   */
  async change(
    id: string,
    params: Body<'POST /subscriptions/{id}/change'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /subscriptions/{id}/change'>> {
    return unwrap(
      await this.t.call(
        'POST /subscriptions/{id}/change',
        { params: { id }, body: params },
        'write',
        options,
      ),
    );
  }

  /** Applies a coupon (id or code), replacing the one applied. */
  async applyDiscount(
    id: string,
    params: Body<'POST /subscriptions/{id}/discount'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /subscriptions/{id}/discount'>> {
    return unwrap(
      await this.t.call(
        'POST /subscriptions/{id}/discount',
        { params: { id }, body: params },
        'write',
        options,
      ),
    );
  }

  async removeDiscount(
    id: string,
    options?: RequestOptions,
  ): Promise<Data<'DELETE /subscriptions/{id}/discount'>> {
    return unwrap(
      await this.t.call('DELETE /subscriptions/{id}/discount', { params: { id } }, 'write', options),
    );
  }

  async pause(id: string, options?: RequestOptions): Promise<Data<'POST /subscriptions/{id}/pause'>> {
    return unwrap(await this.t.call('POST /subscriptions/{id}/pause', { params: { id } }, 'write', options));
  }

  async resume(id: string, options?: RequestOptions): Promise<Data<'POST /subscriptions/{id}/resume'>> {
    return unwrap(await this.t.call('POST /subscriptions/{id}/resume', { params: { id } }, 'write', options));
  }
}

export class Invoices extends Resource {
  list(params?: ListInvoicesParams, options?: RequestOptions): ListPromise<Item<'GET /invoices'>> {
    return this.paged('GET /invoices', params, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Data<'GET /invoices/{id}'>> {
    return unwrap(await this.t.call('GET /invoices/{id}', { params: { id } }, 'read', options));
  }

  /**
   * The invoice as a PDF document (its number, the merchant, the customer, the lines, the totals,
   * the status and the pay link's QR code), in French (default), Arabic or English: its bytes, to
   * save or send on (`fs.writeFileSync('invoice.pdf', bytes)`).
   */
  pdf(id: string, params: { lang?: 'fr' | 'ar' | 'en' } = {}, options?: RequestOptions): Promise<Uint8Array> {
    return this.t.download(
      'GET /invoices/{id}/pdf',
      { params: { id }, query: { lang: params.lang } },
      'application/pdf',
      options,
    );
  }

  /**
   * Records a payment made by hand (cash, a transfer, a cheque): the invoice with its `amountPaid`,
   * `amountDue` and `manualPayments`; paid once nothing is due. Not in the balance.
   */
  async recordPayment(
    id: string,
    params: Body<'POST /invoices/{id}/payments'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /invoices/{id}/payments'>> {
    return unwrap(
      await this.t.call('POST /invoices/{id}/payments', { params: { id }, body: params }, 'write', options),
    );
  }
}

export class BillingSettings extends Resource {
  /** The key's environment's reminders, SMS, dunning and portal settings (defaults until changed). */
  async get(options?: RequestOptions): Promise<Data<'GET /billing-settings'>> {
    return unwrap(await this.t.call('GET /billing-settings', {}, 'read', options));
  }

  /** Changes the parts given (each replaces the fields it names); the rest is kept. */
  async update(
    params: Body<'PATCH /billing-settings'>,
    options?: RequestOptions,
  ): Promise<Data<'PATCH /billing-settings'>> {
    return unwrap(await this.t.call('PATCH /billing-settings', { body: params }, 'write', options));
  }
}

export class PortalSessions extends Resource {
  /** A link (valid one hour) that signs the customer in to the key's environment's customer portal. */
  async create(
    params: Body<'POST /portal-sessions'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /portal-sessions'>> {
    return unwrap(await this.t.call('POST /portal-sessions', { body: params }, 'write', options));
  }
}

export class WebhookEndpoints extends Resource {
  /** Creates an endpoint; its `secret` is in this answer only (and in rotateSecret's). */
  async create(
    params: Body<'POST /webhook-endpoints'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /webhook-endpoints'>> {
    return unwrap(await this.t.call('POST /webhook-endpoints', { body: params }, 'write', options));
  }

  list(
    params?: ListWebhookEndpointsParams,
    options?: RequestOptions,
  ): ListPromise<Item<'GET /webhook-endpoints'>> {
    return this.paged('GET /webhook-endpoints', params, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Data<'GET /webhook-endpoints/{id}'>> {
    return unwrap(await this.t.call('GET /webhook-endpoints/{id}', { params: { id } }, 'read', options));
  }

  async update(
    id: string,
    params: Body<'PATCH /webhook-endpoints/{id}'>,
    options?: RequestOptions,
  ): Promise<Data<'PATCH /webhook-endpoints/{id}'>> {
    return unwrap(
      await this.t.call('PATCH /webhook-endpoints/{id}', { params: { id }, body: params }, 'write', options),
    );
  }

  async delete(id: string, options?: RequestOptions): Promise<Data<'DELETE /webhook-endpoints/{id}'>> {
    return unwrap(await this.t.call('DELETE /webhook-endpoints/{id}', { params: { id } }, 'write', options));
  }

  /** A new secret; the old one keeps signing for 24 h. */
  async rotateSecret(
    id: string,
    options?: RequestOptions,
  ): Promise<Data<'POST /webhook-endpoints/{id}/rotate-secret'>> {
    return unwrap(
      await this.t.call('POST /webhook-endpoints/{id}/rotate-secret', { params: { id } }, 'write', options),
    );
  }

  /** Sends a sample event (`data.test: true`) to the endpoint. */
  async sendTestEvent(
    id: string,
    params: Body<'POST /webhook-endpoints/{id}/test'> = {},
    options?: RequestOptions,
  ): Promise<Data<'POST /webhook-endpoints/{id}/test'>> {
    return unwrap(
      await this.t.call(
        'POST /webhook-endpoints/{id}/test',
        { params: { id }, body: params },
        'write',
        options,
      ),
    );
  }
}

export class WebhookDeliveries extends Resource {
  list(
    params?: ListWebhookDeliveriesParams,
    options?: RequestOptions,
  ): ListPromise<Item<'GET /webhook-deliveries'>> {
    return this.paged('GET /webhook-deliveries', params, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Data<'GET /webhook-deliveries/{id}'>> {
    return unwrap(await this.t.call('GET /webhook-deliveries/{id}', { params: { id } }, 'read', options));
  }

  /** Every attempt of a delivery: status code, duration, error, the start of the answer. */
  async listAttempts(
    id: string,
    options?: RequestOptions,
  ): Promise<Data<'GET /webhook-deliveries/{id}/attempts'>> {
    return unwrap(
      await this.t.call('GET /webhook-deliveries/{id}/attempts', { params: { id } }, 'read', options),
    );
  }

  /** Delivers again (replay). */
  async retry(id: string, options?: RequestOptions): Promise<Data<'POST /webhook-deliveries/{id}/retry'>> {
    return unwrap(
      await this.t.call('POST /webhook-deliveries/{id}/retry', { params: { id } }, 'write', options),
    );
  }
}

/**
 * A platform's connected merchant accounts (docs/platforms.md). Act for one with the `account`
 * option, per client or per call.
 */
export class Accounts extends Resource {
  async create(params: Body<'POST /accounts'>, options?: RequestOptions): Promise<Data<'POST /accounts'>> {
    return unwrap(await this.t.call('POST /accounts', { body: params }, 'write', options));
  }

  list(params?: ListAccountsParams, options?: RequestOptions): ListPromise<Item<'GET /accounts'>> {
    return this.paged('GET /accounts', params, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Data<'GET /accounts/{id}'>> {
    return unwrap(await this.t.call('GET /accounts/{id}', { params: { id } }, 'read', options));
  }

  /** A single-use link, valid one hour, where the merchant sets a password and applies to go live. */
  async createOnboardingLink(
    id: string,
    params: Body<'POST /accounts/{id}/onboarding-link'>,
    options?: RequestOptions,
  ): Promise<Data<'POST /accounts/{id}/onboarding-link'>> {
    return unwrap(
      await this.t.call(
        'POST /accounts/{id}/onboarding-link',
        { params: { id }, body: params },
        'write',
        options,
      ),
    );
  }
}

export class Organization extends Resource {
  /**
   * The key's organization (secret key): its verification for Production (Production money waits
   * for `verified`) and its payout account.
   */
  async get(options?: RequestOptions): Promise<Data<'GET /organization'>> {
    return unwrap(await this.t.call('GET /organization', {}, 'read', options));
  }

  /** The same record by id: only the key's own organization (else 404 `Organization not found`). */
  async getById(id: string, options?: RequestOptions): Promise<Data<'GET /organization/{id}'>> {
    return unwrap(await this.t.call('GET /organization/{id}', { params: { id } }, 'read', options));
  }
}

export class Sandbox extends Resource {
  /** Sandbox only: runs billing now (new periods' invoices, status changes). */
  async runBilling(options?: RequestOptions): Promise<Data<'POST /sandbox/billing/run'>> {
    return unwrap(await this.t.call('POST /sandbox/billing/run', {}, 'write', options));
  }

  /** Sandbox only: runs the payout job now for this environment, whatever the hour and its day. */
  async runPayouts(options?: RequestOptions): Promise<Data<'POST /sandbox/payouts/run'>> {
    return unwrap(await this.t.call('POST /sandbox/payouts/run', {}, 'write', options));
  }
}

export class Refunds extends Resource {
  /** Refunds a completed payment (`amount` defaults to what is left); the balance is debited at once. */
  async create(params: Body<'POST /refunds'>, options?: RequestOptions): Promise<Data<'POST /refunds'>> {
    return unwrap(await this.t.call('POST /refunds', { body: params }, 'write', options));
  }

  list(params?: ListRefundsParams, options?: RequestOptions): ListPromise<Item<'GET /refunds'>> {
    return this.paged('GET /refunds', params, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Data<'GET /refunds/{id}'>> {
    return unwrap(await this.t.call('GET /refunds/{id}', { params: { id } }, 'read', options));
  }
}

export class Balance extends Resource {
  /** What can be paid out now (`available`) and later (`pending`), in whole MRU. */
  async retrieve(options?: RequestOptions): Promise<Data<'GET /balance'>> {
    return unwrap(await this.t.call('GET /balance', {}, 'read', options));
  }
}

export class BalanceTransactions extends Resource {
  list(
    params?: ListBalanceTransactionsParams,
    options?: RequestOptions,
  ): ListPromise<Item<'GET /balance-transactions'>> {
    return this.paged('GET /balance-transactions', params, options);
  }
}

export class Payouts extends Resource {
  /** A payout now to the approved payout account: of `amount`, or of the whole available balance. */
  async create(params: Body<'POST /payouts'> = {}, options?: RequestOptions): Promise<Data<'POST /payouts'>> {
    return unwrap(await this.t.call('POST /payouts', { body: params }, 'write', options));
  }

  list(params?: ListPayoutsParams, options?: RequestOptions): ListPromise<Item<'GET /payouts'>> {
    return this.paged('GET /payouts', params, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Data<'GET /payouts/{id}'>> {
    return unwrap(await this.t.call('GET /payouts/{id}', { params: { id } }, 'read', options));
  }
}

export class PayoutSchedule extends Resource {
  /** The environment's payout schedule (daily, minimum 1000 MRU unless changed). */
  async retrieve(options?: RequestOptions): Promise<Data<'GET /payout-schedule'>> {
    return unwrap(await this.t.call('GET /payout-schedule', {}, 'read', options));
  }

  async update(
    params: Body<'PATCH /payout-schedule'>,
    options?: RequestOptions,
  ): Promise<Data<'PATCH /payout-schedule'>> {
    return unwrap(await this.t.call('PATCH /payout-schedule', { body: params }, 'write', options));
  }
}

export class Reports extends Resource {
  /** Per UTC day and bank app of [from, to] (YYYY-MM-DD, at most 366 days): payments, gross, fees, refunds, net. */
  async settlement(
    params: SettlementReportParams,
    options?: RequestOptions,
  ): Promise<Data<'GET /reports/settlement'>> {
    return unwrap(await this.t.call('GET /reports/settlement', { query: params }, 'read', options));
  }
}

/** The webhook helpers, also exported as functions. */
export const webhooks = { constructEvent, verify: verifyWebhook, verifySignature: verifyWebhookSignature };

/**
 * The Khoums client. Server side with a secret key (`sk_…`); in a browser with a publishable key
 * (`pk_…`) for the look-up, payment methods and pay, and the constructor refuses a secret key there.
 */
export class Khoums {
  readonly paymentRequests: PaymentRequests;
  readonly payments: Payments;
  readonly paymentMethods: PaymentMethods;
  readonly checkoutSessions: CheckoutSessions;
  readonly paymentLinks: PaymentLinks;
  readonly coupons: Coupons;
  readonly testClocks: TestClocks;
  readonly transfers: Transfers;
  readonly products: Products;
  readonly prices: Prices;
  readonly customers: Customers;
  readonly subscriptions: Subscriptions;
  readonly invoices: Invoices;
  readonly billingSettings: BillingSettings;
  readonly portalSessions: PortalSessions;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly webhookDeliveries: WebhookDeliveries;
  readonly sandbox: Sandbox;
  readonly organization: Organization;
  readonly accounts: Accounts;
  readonly refunds: Refunds;
  readonly balance: Balance;
  readonly balanceTransactions: BalanceTransactions;
  readonly payouts: Payouts;
  readonly payoutSchedule: PayoutSchedule;
  readonly reports: Reports;
  readonly webhooks = webhooks;

  constructor(apiKey: string, options: ClientOptions = {}) {
    const t = new Transport(apiKey, options);
    this.paymentRequests = new PaymentRequests(t);
    this.payments = new Payments(t);
    this.paymentMethods = new PaymentMethods(t);
    this.checkoutSessions = new CheckoutSessions(t);
    this.paymentLinks = new PaymentLinks(t);
    this.coupons = new Coupons(t);
    this.testClocks = new TestClocks(t);
    this.transfers = new Transfers(t);
    this.products = new Products(t);
    this.prices = new Prices(t);
    this.customers = new Customers(t);
    this.subscriptions = new Subscriptions(t);
    this.invoices = new Invoices(t);
    this.billingSettings = new BillingSettings(t);
    this.portalSessions = new PortalSessions(t);
    this.webhookEndpoints = new WebhookEndpoints(t);
    this.webhookDeliveries = new WebhookDeliveries(t);
    this.sandbox = new Sandbox(t);
    this.organization = new Organization(t);
    this.accounts = new Accounts(t);
    this.refunds = new Refunds(t);
    this.balance = new Balance(t);
    this.balanceTransactions = new BalanceTransactions(t);
    this.payouts = new Payouts(t);
    this.payoutSchedule = new PayoutSchedule(t);
    this.reports = new Reports(t);
  }
}
