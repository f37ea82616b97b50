import { billingSettlementCtes } from './billing.fragments';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { SettlementExtensions } from '../payments/settlement';

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
