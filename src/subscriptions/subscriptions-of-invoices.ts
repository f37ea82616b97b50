import { Injectable, OnModuleInit } from '@nestjs/common';
import { InvoiceSubscriptions } from '../invoices/invoice-subscriptions';
import { productNameOfSubscription } from './subscriptions.fragments';

/** Gives invoices, below subscriptions, what they show of the subscription they bill. */
@Injectable()
export class SubscriptionsOfInvoices implements OnModuleInit {
  constructor(private readonly invoiceSubscriptions: InvoiceSubscriptions) {}

  onModuleInit(): void {
    this.invoiceSubscriptions.register({ productNameOf: productNameOfSubscription });
  }
}
