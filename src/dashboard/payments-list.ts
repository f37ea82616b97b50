import { normalizePhone } from '../common/validation/rules';
import { PAYMENT_STATUSES } from '../payments/payment';
import { PaymentMethodsService } from '../payments/payment-methods.service';
import { PaymentsService } from '../payments/payments.service';
import type { DashboardRequest } from './dashboard-request';
import { parseAmount, parseChoice, parseDay, parseText } from './forms';
import { pager, paymentRow } from './presenters';

export const PAGE_SIZE = 25;

/** The filters both lists share, as the form shows them and as the search takes them. */
export function commonFilters(d: DashboardRequest) {
  const form = {
    q: parseText(d.query('q')),
    from: parseDay(d.query('from')) && d.query('from'),
    to: parseDay(d.query('to')) && d.query('to'),
    amountMin: parseAmount(d.query('amountMin'))?.toString(),
    amountMax: parseAmount(d.query('amountMax'))?.toString(),
    transactionId: parseText(d.query('transactionId')),
    phone: normalizePhone(d.query('phone') ?? '') ?? undefined,
  };
  const search = {
    q: form.q,
    from: parseDay(form.from),
    to: parseDay(form.to, true),
    amountMin: parseAmount(form.amountMin),
    amountMax: parseAmount(form.amountMax),
    transactionId: form.transactionId,
    phoneNumber: form.phone,
  };
  return { form, search };
}

/**
 * The locals of a list of payments (views/partials/dashboard/payments-list.hbs): one environment's
 * payments, newest first, searched and paged from the query, its form and pager pointing at `base`.
 * `/dashboard/payments` shows the user's environment; a platform's page of a connected account
 * shows the account's (its rows then link nowhere: the request's page is the account's own).
 */
export async function paymentsList(
  d: DashboardRequest,
  payments: PaymentsService,
  paymentMethods: PaymentMethodsService,
  environmentId: string,
  base: string,
  options: { linkRows: boolean } = { linkRows: true },
) {
  const { t } = d;
  const { form, search } = commonFilters(d);
  const status = parseChoice(d.query('status'), PAYMENT_STATUSES);
  const methods = await paymentMethods.listAll(environmentId);
  const methodId = parseChoice(
    d.query('method'),
    methods.map((m) => m.id),
  );
  const page = await payments.search(
    environmentId,
    { ...search, status, paymentMethodId: methodId },
    { after: d.query('after'), before: d.query('before'), limit: PAGE_SIZE },
  );
  const filters = { ...form, status, method: methodId };
  return {
    action: base,
    filters,
    filtered: Object.values(filters).some(Boolean),
    advanced: Boolean(status || methodId || form.from || form.to || form.amountMin || form.amountMax),
    statuses: PAYMENT_STATUSES.map((s) => ({
      value: s,
      label: t[`paymentStatus_${s}`],
      selected: s === status,
    })),
    methods: methods.map((m) => ({ value: m.id, label: m.name, selected: m.id === methodId })),
    rows: page.items.map((p) => {
      const row = paymentRow({ t, lang: d.page.lang }, p);
      return options.linkRows ? row : { ...row, href: undefined };
    }),
    pager: pager(d, base, filters, page),
  };
}
