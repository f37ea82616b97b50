import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WRONG_PASS_CODE } from '../bank';
import { SIGNATURE_HEADER, signNotification } from '../notification-signature';

/**
 * A bank gateway speaking the protocol of docs/bank-gateway.md, for the end-to-end suite and
 * local runs (`npm run bank-simulator`). It keeps its charges in memory, counts every charge
 * that reaches it, and has fault switches (a mode, set over HTTP or in-process).
 */

export const SIMULATOR_MODES = [
  'normal',
  'decline',
  'error',
  'hang',
  'pending',
  'pending-then-confirm',
  'slow',
] as const;
export type SimulatorMode = (typeof SIMULATOR_MODES)[number];

export interface SimulatedCharge {
  reference: string;
  bankReference: string;
  amount: number;
  phoneNumber: string;
  status: 'completed' | 'pending' | 'declined';
  reason?: string;
  /** Only `pending-then-confirm`: becomes completed when its status is first asked. */
  confirmOnStatus: boolean;
}

/**
 * What becomes of the notification of a transfer sent to the merchant's wallet (docs/bank-gateway.md
 * "Incoming transfers"): sent at once (`normal`), never sent (`drop`: only polling finds it), sent
 * `copies` times (`repeat`), held until the next transfer's has gone (`reorder`), sent after
 * `delayMs` (`delay`).
 */
export const NOTIFICATION_MODES = ['normal', 'drop', 'repeat', 'reorder', 'delay'] as const;
export type NotificationMode = (typeof NOTIFICATION_MODES)[number];

/** A transfer the bank received for a merchant's wallet, as the gateway reports it. */
export interface SimulatedIncomingTransfer {
  id: string;
  receivingBank: string;
  receivingPhone: string;
  payerPhone: string;
  payerApp: string;
  amount: number;
  receivedAt: string;
  memo?: string;
}

/** What `POST /simulator/transfers` takes: a customer sends money to a wallet. */
export interface SendTransferInput {
  receivingPhone: string;
  payerPhone: string;
  amount: number;
  receivingBank?: string;
  payerApp?: string;
  memo?: string;
  /** The bank's reference (default a new one): the same again replays a transfer already received. */
  id?: string;
  /** When the bank received it (default now). */
  receivedAt?: string;
}

export interface SimulatorStats {
  /** Charge requests that reached the bank (replays of a known reference included). */
  chargeRequests: number;
  /** Distinct charges recorded (a replayed reference is not charged again). */
  charges: number;
  statusRequests: number;
  /** Transfer requests that reached the bank (replays included) and distinct transfers sent. */
  transferRequests: number;
  transfers: number;
  /** Refund requests that reached the bank (replays included). */
  refundRequests: number;
  /** Distinct refunds recorded. */
  refunds: number;
  /** Incoming transfers received for merchants' wallets, and `GET /transfers?since=` calls. */
  incomingTransfers: number;
  transferPolls: number;
  /** Notifications POSTed to Khoums, and those it answered 200. */
  notificationsSent: number;
  notificationsAccepted: number;
}

/** A payout sent to a merchant's account (docs/bank-gateway.md "Transfers"). */
export interface SimulatedTransfer {
  reference: string;
  bankReference: string;
  amount: number;
  iban: string;
  status: 'paid' | 'in_transit' | 'failed';
  reason?: string;
  /** Only `pending-then-confirm`: paid when it is next asked about. */
  confirmOnStatus: boolean;
}

export interface SimulatedRefund {
  reference: string;
  chargeReference: string;
  bankReference: string;
  amount: number;
  status: 'succeeded' | 'pending' | 'failed';
  reason?: string;
}

export interface BankSimulator {
  url: string;
  stats(): SimulatorStats;
  charge(reference: string): SimulatedCharge | undefined;
  transfer(reference: string): SimulatedTransfer | undefined;
  settleTransfer(reference: string, status: 'paid' | 'failed'): boolean;
  refund(reference: string): SimulatedRefund | undefined;
  /** A pending refund (mode `pending`) ends. */
  settleRefund(reference: string, status: 'succeeded' | 'failed'): boolean;
  setMode(mode: SimulatorMode, delayMs?: number): void;
  /** A customer's transfer reaches a merchant's wallet: stored for polling, and notified per the mode. */
  sendTransfer(input: SendTransferInput): SimulatedIncomingTransfer;
  setNotificationMode(mode: NotificationMode, options?: { delayMs?: number; copies?: number }): void;
  /** Sends the notification `reorder` holds back, if any. */
  flushNotifications(): void;
  /** Resolves once every notification sent so far has had its answer (or failed). */
  notificationsSettled(): Promise<void>;
  /** Where notifications go: Khoums's API base URL (`…/api/v1`) and the secret. */
  notifyTo(khoumsUrl: string | undefined, secret?: string): void;
  settle(reference: string, status: 'completed' | 'declined'): boolean;
  reset(): void;
  close(): Promise<void>;
}

interface ChargeBody {
  reference?: unknown;
  amount?: unknown;
  phoneNumber?: unknown;
  passCode?: unknown;
}

/** What the simulator does with a new charge in `normal` mode: the Sandbox's magic numbers. */
export function normalOutcome(
  phoneNumber: string,
  passCode: unknown,
): 'completed' | 'pending' | 'declined' | 'hang' {
  if (
    passCode !== undefined &&
    (typeof passCode !== 'string' || !/^\d{4,6}$/.test(passCode) || passCode === '0000')
  ) {
    return 'declined';
  }
  switch (phoneNumber.slice(-4)) {
    case '9001':
      return 'declined';
    case '9002':
      return 'hang';
    case '9003':
      return 'pending';
    default:
      return 'completed';
  }
}

export async function startBankSimulator(
  options: {
    port?: number;
    host?: string;
    apiKey?: string;
    /** Khoums's API base URL (`http://host/api/v1`): incoming transfers are notified there. */
    khoumsUrl?: string;
    /** BANK_NOTIFICATIONS_SECRET, which signs the notifications. */
    notificationsSecret?: string;
  } = {},
): Promise<BankSimulator> {
  const charges = new Map<string, SimulatedCharge>();
  const transfers = new Map<string, SimulatedTransfer>();
  const refunds = new Map<string, SimulatedRefund>();
  const stats: SimulatorStats = {
    chargeRequests: 0,
    charges: 0,
    statusRequests: 0,
    transferRequests: 0,
    transfers: 0,
    refundRequests: 0,
    refunds: 0,
    incomingTransfers: 0,
    transferPolls: 0,
    notificationsSent: 0,
    notificationsAccepted: 0,
  };
  let mode: SimulatorMode = 'normal';
  let delayMs = 0;

  // Incoming transfers, in the order the bank received them (a transfer's cursor is its position).
  const incoming: SimulatedIncomingTransfer[] = [];
  const incomingIds = new Map<string, SimulatedIncomingTransfer>();
  let khoumsUrl = options.khoumsUrl;
  let notificationsSecret = options.notificationsSecret;
  let notificationMode: NotificationMode = 'normal';
  let notificationDelayMs = 0;
  let notificationCopies = 2;
  let heldBack: SimulatedIncomingTransfer | null = null;
  const inFlight = new Set<Promise<void>>();

  /** POSTs one signed notification to Khoums (no retry: polling finds what is lost). */
  function notify(transfer: SimulatedIncomingTransfer, after: number | Promise<void> = 0): Promise<void> {
    if (!khoumsUrl) return Promise.resolve();
    const url = `${khoumsUrl.replace(/\/+$/, '')}/bank-notifications/transfers`;
    const secret = notificationsSecret ?? '';
    const sending = (async () => {
      if (typeof after !== 'number') await after;
      else if (after > 0) await new Promise((r) => setTimeout(r, after).unref());
      const body = JSON.stringify(transfer);
      stats.notificationsSent += 1;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [SIGNATURE_HEADER]: signNotification(secret, body, Math.floor(Date.now() / 1000)),
          },
          body,
          signal: AbortSignal.timeout(30_000),
        });
        await res.body?.cancel().catch(() => undefined);
        if (res.status === 200) stats.notificationsAccepted += 1;
      } catch {
        // Khoums unreachable: the transfer waits for its poll.
      }
    })();
    inFlight.add(sending);
    void sending.finally(() => inFlight.delete(sending));
    return sending;
  }

  function sendTransfer(input: SendTransferInput): SimulatedIncomingTransfer {
    const known = input.id === undefined ? undefined : incomingIds.get(input.id);
    if (known) {
      void notify(known);
      return known;
    }
    const transfer: SimulatedIncomingTransfer = {
      id: input.id ?? `gim_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
      receivingBank: input.receivingBank ?? 'BANKILY',
      receivingPhone: input.receivingPhone,
      payerPhone: input.payerPhone,
      payerApp: input.payerApp ?? 'bankily',
      amount: input.amount,
      receivedAt: input.receivedAt ?? new Date().toISOString(),
      ...(input.memo !== undefined ? { memo: input.memo } : {}),
    };
    incoming.push(transfer);
    incomingIds.set(transfer.id, transfer);
    stats.incomingTransfers += 1;
    switch (notificationMode) {
      case 'normal':
        void notify(transfer);
        break;
      case 'drop':
        break;
      case 'repeat':
        for (let i = 0; i < notificationCopies; i++) void notify(transfer);
        break;
      case 'delay':
        void notify(transfer, notificationDelayMs);
        break;
      case 'reorder':
        if (heldBack) {
          const held = heldBack;
          heldBack = null;
          // The later transfer's notification arrives first; the earlier one once it is answered.
          void notify(held, notify(transfer));
        } else heldBack = transfer;
        break;
    }
    return transfer;
  }

  function flushNotifications(): void {
    if (!heldBack) return;
    void notify(heldBack);
    heldBack = null;
  }

  async function notificationsSettled(): Promise<void> {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  }

  /** `GET /transfers?since=<cursor>`: up to `limit` (100) transfers after the cursor, oldest first. */
  function handleIncomingList(url: URL, res: ServerResponse): void {
    stats.transferPolls += 1;
    if (mode === 'error') return send(res, 503, { error: 'bank unavailable' });
    if (mode === 'hang') return;
    const since = url.searchParams.get('since');
    const from = since === null ? 0 : Number(since);
    if (!Number.isInteger(from) || from < 0)
      return send(res, 400, { error: 'since: a cursor of this gateway' });
    const limit = Math.min(Math.max(Number(url.searchParams.get('limit') ?? 100) || 100, 1), 500);
    const page = incoming.slice(from, from + limit);
    send(res, 200, {
      transfers: page,
      cursor: String(from + page.length),
      hasMore: from + page.length < incoming.length,
    });
  }

  function setNotificationMode(next: NotificationMode, o: { delayMs?: number; copies?: number } = {}): void {
    notificationMode = next;
    notificationDelayMs = o.delayMs ?? 0;
    notificationCopies = o.copies ?? 2;
    if (next !== 'reorder') flushNotifications();
  }

  function handleSendTransfer(body: Record<string, unknown>, res: ServerResponse): void {
    if (
      typeof body.receivingPhone !== 'string' ||
      typeof body.payerPhone !== 'string' ||
      !Number.isInteger(body.amount) ||
      (body.amount as number) < 1
    )
      return send(res, 400, { error: 'receivingPhone, payerPhone and amount (integer) are required' });
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    send(
      res,
      200,
      sendTransfer({
        receivingPhone: body.receivingPhone,
        payerPhone: body.payerPhone,
        amount: body.amount as number,
        receivingBank: str(body.receivingBank),
        payerApp: str(body.payerApp),
        memo: str(body.memo),
        id: str(body.id),
        receivedAt: str(body.receivedAt),
      }),
    );
  }

  const send = (res: ServerResponse, status: number, body: unknown) => {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const refundView = (r: SimulatedRefund) => ({
    reference: r.reference,
    status: r.status,
    bankReference: r.bankReference,
    amount: r.amount,
    ...(r.reason ? { reason: r.reason } : {}),
  });
  const view = (c: SimulatedCharge) => ({
    reference: c.reference,
    status: c.status,
    bankReference: c.bankReference,
    amount: c.amount,
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.reason === 'wrong pass code' ? { code: WRONG_PASS_CODE } : {}),
  });

  function record(
    body: ChargeBody,
    status: SimulatedCharge['status'],
    confirmOnStatus = false,
    reason?: string,
  ) {
    const charge: SimulatedCharge = {
      reference: String(body.reference),
      bankReference: `bank_${randomUUID().slice(0, 12)}`,
      amount: Number(body.amount),
      phoneNumber: String(body.phoneNumber),
      status,
      reason,
      confirmOnStatus,
    };
    charges.set(charge.reference, charge);
    stats.charges += 1;
    return charge;
  }

  async function handleCharge(body: ChargeBody, res: ServerResponse): Promise<void> {
    stats.chargeRequests += 1;
    if (
      typeof body.reference !== 'string' ||
      !Number.isInteger(body.amount) ||
      typeof body.phoneNumber !== 'string'
    ) {
      return send(res, 400, { error: 'reference, amount and phoneNumber are required' });
    }
    const known = charges.get(body.reference);
    if (known) return send(res, 200, view(known)); // idempotent replay: no second charge
    switch (mode) {
      case 'error':
        return send(res, 503, { error: 'bank unavailable' });
      case 'hang':
        return; // never answers; the caller's time-out decides
      case 'decline':
        return send(res, 200, view(record(body, 'declined', false, 'insufficient funds')));
      case 'pending':
        return send(res, 200, view(record(body, 'pending')));
      case 'pending-then-confirm':
        return send(res, 200, view(record(body, 'pending', true)));
      case 'slow': {
        // The charge is done at once; the answer comes late (a crash can fall in between).
        const charge = record(body, 'completed');
        await new Promise((r) => setTimeout(r, delayMs).unref());
        return send(res, 200, view(charge));
      }
      case 'normal': {
        const outcome = normalOutcome(body.phoneNumber, body.passCode);
        if (outcome === 'hang') return;
        if (
          outcome === 'declined' &&
          body.passCode !== undefined &&
          normalOutcome('', body.passCode) === 'declined'
        )
          return send(res, 200, view(record(body, 'declined', false, 'wrong pass code')));
        return send(
          res,
          200,
          view(record(body, outcome, false, outcome === 'declined' ? 'declined' : undefined)),
        );
      }
    }
  }

  const transferView = (t: SimulatedTransfer) => ({
    reference: t.reference,
    status: t.status,
    bankReference: t.bankReference,
    amount: t.amount,
    ...(t.reason ? { reason: t.reason } : {}),
  });

  function recordTransfer(
    body: Record<string, unknown>,
    status: SimulatedTransfer['status'],
    confirmOnStatus = false,
  ): SimulatedTransfer {
    const transfer: SimulatedTransfer = {
      reference: String(body.reference),
      bankReference: `trf_${randomUUID().slice(0, 12)}`,
      amount: Number(body.amount),
      iban: String(body.iban),
      status,
      reason: status === 'failed' ? 'account closed' : undefined,
      confirmOnStatus,
    };
    transfers.set(transfer.reference, transfer);
    stats.transfers += 1;
    return transfer;
  }

  /** `POST /transfers`: a replayed reference answers the transfer's current state, never a second one. */
  async function handleTransfer(body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    stats.transferRequests += 1;
    if (typeof body.reference !== 'string' || !Number.isInteger(body.amount) || typeof body.iban !== 'string')
      return send(res, 400, { error: 'reference, amount and iban are required' });
    if (mode === 'error') return send(res, 503, { error: 'bank unavailable' });
    if (mode === 'hang') return;
    const known = transfers.get(body.reference);
    if (known) {
      if (known.confirmOnStatus && known.status === 'in_transit') known.status = 'paid';
      return send(res, 200, transferView(known));
    }
    switch (mode) {
      case 'decline':
        return send(res, 200, transferView(recordTransfer(body, 'failed')));
      case 'pending':
        return send(res, 200, transferView(recordTransfer(body, 'in_transit')));
      case 'pending-then-confirm':
        return send(res, 200, transferView(recordTransfer(body, 'in_transit', true)));
      case 'slow': {
        const transfer = recordTransfer(body, 'paid');
        await new Promise((r) => setTimeout(r, delayMs).unref());
        return send(res, 200, transferView(transfer));
      }
      case 'normal':
        return send(
          res,
          200,
          transferView(recordTransfer(body, body.iban.endsWith('0001') ? 'failed' : 'paid')),
        );
    }
  }

  function settleTransfer(reference: string, status: 'paid' | 'failed'): boolean {
    const transfer = transfers.get(reference);
    if (!transfer) return false;
    transfer.status = status;
    transfer.reason = status === 'failed' ? 'account closed' : undefined;
    return true;
  }

  /**
   * A refund: the faults of charges apply (`error`, `hang`, `decline` fails it, `pending` until
   * settled, `slow`); in `normal` mode a refund of a charge paid from a phone ending 9004, or of a
   * charge the bank does not know, or above the charge's amount, fails; the others succeed.
   */
  async function handleRefund(body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    stats.refundRequests += 1;
    if (
      typeof body.reference !== 'string' ||
      typeof body.chargeReference !== 'string' ||
      !Number.isInteger(body.amount)
    ) {
      return send(res, 400, { error: 'reference, chargeReference and amount are required' });
    }
    const known = refunds.get(body.reference);
    if (known) return send(res, 200, refundView(known));
    const recordRefund = (status: SimulatedRefund['status'], reason?: string) => {
      const refund: SimulatedRefund = {
        reference: String(body.reference),
        chargeReference: String(body.chargeReference),
        bankReference: `bank_rf_${randomUUID().slice(0, 12)}`,
        amount: Number(body.amount),
        status,
        reason,
      };
      refunds.set(refund.reference, refund);
      stats.refunds += 1;
      return refund;
    };
    switch (mode) {
      case 'error':
        return send(res, 503, { error: 'bank unavailable' });
      case 'hang':
        return;
      case 'decline':
        return send(res, 200, refundView(recordRefund('failed', 'refund refused')));
      case 'pending':
      case 'pending-then-confirm':
        return send(res, 200, refundView(recordRefund('pending')));
      case 'slow': {
        const refund = recordRefund('succeeded');
        await new Promise((r) => setTimeout(r, delayMs).unref());
        return send(res, 200, refundView(refund));
      }
      case 'normal': {
        const charge = charges.get(body.chargeReference);
        const phone = charge?.phoneNumber ?? (typeof body.phoneNumber === 'string' ? body.phoneNumber : '');
        const refused =
          phone.endsWith('9004') || (charge !== undefined && Number(body.amount) > charge.amount);
        return send(
          res,
          200,
          refundView(refused ? recordRefund('failed', 'refund refused') : recordRefund('succeeded')),
        );
      }
    }
  }

  function handleRefundStatus(reference: string, res: ServerResponse): void {
    stats.statusRequests += 1;
    if (mode === 'error') return send(res, 503, { error: 'bank unavailable' });
    if (mode === 'hang') return;
    const refund = refunds.get(reference);
    if (!refund) return send(res, 404, { error: 'unknown refund' });
    send(res, 200, refundView(refund));
  }

  function settleRefund(reference: string, status: 'succeeded' | 'failed'): boolean {
    const refund = refunds.get(reference);
    if (!refund) return false;
    refund.status = status;
    if (status === 'failed') refund.reason = 'refund refused';
    return true;
  }

  function handleStatus(reference: string, res: ServerResponse): void {
    stats.statusRequests += 1;
    if (mode === 'error') return send(res, 503, { error: 'bank unavailable' });
    if (mode === 'hang') return;
    const charge = charges.get(reference);
    if (!charge) return send(res, 404, { error: 'unknown charge' });
    if (charge.confirmOnStatus && charge.status === 'pending') charge.status = 'completed';
    send(res, 200, view(charge));
  }

  function handleControl(path: string, body: Record<string, unknown>, res: ServerResponse): void {
    if (path === '/_control/stats') return send(res, 200, stats);
    if (path === '/_control/reset') {
      reset();
      return send(res, 200, { mode });
    }
    if (path === '/_control/mode') {
      if (!SIMULATOR_MODES.includes(body.mode as SimulatorMode))
        return send(res, 400, { error: `mode: one of ${SIMULATOR_MODES.join(', ')}` });
      setMode(body.mode as SimulatorMode, typeof body.delayMs === 'number' ? body.delayMs : undefined);
      return send(res, 200, { mode, delayMs });
    }
    if (path === '/_control/notifications') {
      if (!NOTIFICATION_MODES.includes(body.mode as NotificationMode))
        return send(res, 400, { error: `mode: one of ${NOTIFICATION_MODES.join(', ')}` });
      setNotificationMode(body.mode as NotificationMode, {
        delayMs: typeof body.delayMs === 'number' ? body.delayMs : undefined,
        copies: typeof body.copies === 'number' ? body.copies : undefined,
      });
      return send(res, 200, {
        mode: notificationMode,
        delayMs: notificationDelayMs,
        copies: notificationCopies,
      });
    }
    if (path === '/_control/notifications/flush') {
      flushNotifications();
      return send(res, 200, { mode: notificationMode });
    }
    const transferMatch = /^\/_control\/transfers\/([^/]+)\/settle$/.exec(path);
    if (transferMatch) {
      const reference = decodeURIComponent(transferMatch[1]);
      return settleTransfer(reference, body.status === 'failed' ? 'failed' : 'paid')
        ? send(res, 200, transferView(transfers.get(reference)!))
        : send(res, 404, { error: 'unknown transfer' });
    }
    const refundSettle = /^\/_control\/refunds\/([^/]+)\/settle$/.exec(path);
    if (refundSettle) {
      const reference = decodeURIComponent(refundSettle[1]);
      return settleRefund(reference, body.status === 'failed' ? 'failed' : 'succeeded')
        ? send(res, 200, refundView(refunds.get(reference)!))
        : send(res, 404, { error: 'unknown refund' });
    }
    const settleMatch = /^\/_control\/charges\/([^/]+)\/settle$/.exec(path);
    if (settleMatch) {
      const status = body.status === 'declined' ? 'declined' : 'completed';
      return settle(decodeURIComponent(settleMatch[1]), status)
        ? send(res, 200, view(charges.get(decodeURIComponent(settleMatch[1]))!))
        : send(res, 404, { error: 'unknown charge' });
    }
    send(res, 404, { error: 'not found' });
  }

  function setMode(next: SimulatorMode, nextDelayMs = 0): void {
    mode = next;
    delayMs = nextDelayMs;
  }
  function settle(reference: string, status: 'completed' | 'declined'): boolean {
    const charge = charges.get(reference);
    if (!charge) return false;
    charge.status = status;
    return true;
  }
  function reset(): void {
    charges.clear();
    transfers.clear();
    refunds.clear();
    incoming.length = 0;
    incomingIds.clear();
    heldBack = null;
    notificationMode = 'normal';
    Object.assign(stats, {
      chargeRequests: 0,
      charges: 0,
      statusRequests: 0,
      transferRequests: 0,
      transfers: 0,
      refundRequests: 0,
      refunds: 0,
      incomingTransfers: 0,
      transferPolls: 0,
      notificationsSent: 0,
      notificationsAccepted: 0,
    });
    setMode('normal');
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://bank');
      const path = url.pathname;
      let body: Record<string, unknown> = {};
      if (chunks.length) {
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        } catch {
          return send(res, 400, { error: 'malformed JSON' });
        }
      }
      if (path.startsWith('/_control/')) return handleControl(path, body, res);
      // The customer's side (their app sends money to a merchant's wallet): no gateway key.
      if (req.method === 'POST' && path === '/simulator/transfers') return handleSendTransfer(body, res);
      if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`)
        return send(res, 401, { error: 'unauthorized' });
      if (req.method === 'POST' && path === '/charges') {
        handleCharge(body, res).catch(() => send(res, 500, { error: 'simulator failure' }));
        return;
      }
      if (req.method === 'POST' && path === '/transfers') {
        handleTransfer(body, res).catch(() => send(res, 500, { error: 'simulator failure' }));
        return;
      }
      if (req.method === 'POST' && path === '/refunds') {
        handleRefund(body, res).catch(() => send(res, 500, { error: 'simulator failure' }));
        return;
      }
      if (req.method === 'GET' && path === '/transfers') return handleIncomingList(url, res);
      const refundMatch = /^\/refunds\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && refundMatch)
        return handleRefundStatus(decodeURIComponent(refundMatch[1]), res);
      const statusMatch = /^\/charges\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && statusMatch) return handleStatus(decodeURIComponent(statusMatch[1]), res);
      send(res, 404, { error: 'not found' });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    stats: () => ({ ...stats }),
    charge: (reference) => charges.get(reference),
    transfer: (reference) => transfers.get(reference),
    settleTransfer,
    refund: (reference) => refunds.get(reference),
    settleRefund,
    setMode,
    sendTransfer,
    setNotificationMode,
    flushNotifications,
    notificationsSettled,
    notifyTo: (url, secret) => {
      khoumsUrl = url;
      if (secret !== undefined) notificationsSecret = secret;
    },
    settle,
    reset,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
