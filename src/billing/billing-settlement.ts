import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { raw, Sql, sql } from '../database/sql';
import { payInvoiceCtes, voidAfterFailureCtes } from '../invoices/invoices.repository';
import { SettlementContext, SettlementExtensions } from '../payments/settlement';
import { CANCELLED_SUBSCRIPTION_IDS, reactivationEventCte } from '../subscriptions/subscriptions.repository';

/**
 * The billing part of settling a payment: the paid request's pending invoice becomes `paid`
 * (`invoice-paid`) and, when that was its subscription's last overdue invoice, the subscription
 * shows `active` again (`subscription-updated`); past_due is derived from the invoices, so
 * nothing else changes (docs/billing.md). A failed payment that an invoice of a cancelled
 * subscription was waiting for voids it.
 */
export function billingSettlementCtes(ctx: SettlementContext, publicUrl: string): Sql {
  return sql`${payInvoiceCtes('billing_invoice_paid', ctx, publicUrl)}, ${reactivationEventCte(
    'billing_reactivated',
    raw('billing_invoice_paid'),
    ctx.at,
  )}, ${voidAfterFailureCtes(
    'billing_voided_after_failure',
    ctx.settled,
    CANCELLED_SUBSCRIPTION_IDS,
    ctx.at,
    publicUrl,
  )}`;
}

/** Paying an invoice's payment request, by any route, pays the invoice in the payment's own statement. */
@Injectable()
export class BillingSettlement implements OnModuleInit {
  constructor(
    private readonly extensions: SettlementExtensions,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.extensions.register({
      name: 'billing',
      ctes: (ctx) => billingSettlementCtes(ctx, this.config.publicUrl),
    });
  }
}
