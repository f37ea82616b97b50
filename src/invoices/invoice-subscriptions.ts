import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql';

/**
 * What invoices show of the subscription they bill, which sits above them: the subscriptions
 * module registers it when it starts (docs/architecture.md, "When a lower module must let a
 * higher one take part"), so an invoice is read with its product in one statement without
 * invoices importing subscriptions.
 */
export interface SubscriptionPartsOfInvoices {
  /** SQL: the name of the product the subscription (`subscriptionId`, SQL naming it) bills. */
  productNameOf(subscriptionId: Sql): Sql;
}

/** Where the subscriptions module registers `SubscriptionPartsOfInvoices`. */
@Injectable()
export class InvoiceSubscriptions {
  private registered?: SubscriptionPartsOfInvoices;

  register(parts: SubscriptionPartsOfInvoices): void {
    if (this.registered) throw new Error('the subscription parts of invoices are registered twice');
    this.registered = parts;
  }

  productNameOf(subscriptionId: Sql): Sql {
    if (!this.registered)
      throw new Error(
        'no subscription parts registered for invoices: the subscriptions module registers them when it starts',
      );
    return this.registered.productNameOf(subscriptionId);
  }
}
