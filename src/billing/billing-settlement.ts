import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { raw, sql } from '../database/sql';
import { payInvoiceCtes } from '../invoices/invoices.repository';
import { SettlementExtensions } from '../payments/settlement';
import { reactivationEventCte } from '../subscriptions/subscriptions.repository';

/**
 * Paying an invoice's payment request, by any route, marks the invoice `paid` (`invoice-paid`)
 * and, when that was its last overdue invoice, shows a past_due subscription `active` again
 * (`subscription-updated`), in the statement that settles the payment (docs/billing.md).
 */
@Injectable()
export class BillingSettlement implements OnModuleInit {
  constructor(
    private readonly extensions: SettlementExtensions,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.extensions.register({
      name: 'billing',
      ctes: (ctx) =>
        sql`${payInvoiceCtes('billing_invoice_paid', ctx, this.config.publicUrl)}, ${reactivationEventCte(
          'billing_reactivated',
          raw('billing_invoice_paid'),
          ctx.at,
        )}`,
    });
  }
}
