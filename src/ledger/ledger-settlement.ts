import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { SettlementExtensions } from '../payments/settlement';
import { LedgerTerms } from './ledger.repository';
import { ledgerSettlementCte } from './ledger.fragments';

export function ledgerTermsOf(config: AppConfig): LedgerTerms {
  return { defaultFeeBps: config.DEFAULT_FEE_BPS, payoutDelayDays: config.PAYOUT_DELAY_DAYS };
}

/**
 * A payment completed by any route writes its `payment` balance transaction (and its application
 * fee's) in the statement that settles it.
 */
@Injectable()
export class LedgerSettlement implements OnModuleInit {
  constructor(
    private readonly extensions: SettlementExtensions,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const terms = ledgerTermsOf(this.config);
    this.extensions.register({
      name: 'ledger',
      ctes: (ctx) => (ctx.completed ? ledgerSettlementCte(ctx, terms) : null),
    });
  }
}
