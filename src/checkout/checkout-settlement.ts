import { Injectable, OnModuleInit } from '@nestjs/common';
import { SettlementExtensions } from '../payments/settlement';
import { completeOpenSessionCtes } from './checkout.fragments';

/** A payment request paid by any route completes its open checkout session, in the payment's statement. */
@Injectable()
export class CheckoutSettlement implements OnModuleInit {
  constructor(private readonly extensions: SettlementExtensions) {}

  onModuleInit(): void {
    this.extensions.register({
      name: 'checkout',
      ctes: (ctx) => (ctx.completed ? completeOpenSessionCtes(ctx) : null),
    });
  }
}
