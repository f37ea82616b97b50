import { Module } from '@nestjs/common';
import { PaymentRequestsModule } from '../payment-requests/payment-requests.module';
import { PaymentsModule } from '../payments/payments.module';
import { ExpireCheckoutSessionsJob } from './expire-checkout-sessions.job';
import { CheckoutPageController } from './checkout-page.controller';
import { CheckoutPageRenderer } from './checkout-page.renderer';
import { BankAppPayments, CheckoutPayments } from './checkout-payments';
import { CheckoutSessionsController } from './checkout-sessions.controller';
import { CheckoutSessionsRepository } from './checkout-sessions.repository';
import { CheckoutSessionsService } from './checkout-sessions.service';
import { CheckoutSettlement } from './checkout-settlement';
import { CheckoutSurface } from './hosted-page';
import { HostedTransfers, PaymentsHostedTransfers } from './hosted-transfer';
import { PublicCheckoutController } from './public-checkout.controller';
import { PublicCheckoutService } from './public-checkout.service';

@Module({
  imports: [PaymentRequestsModule, PaymentsModule],
  controllers: [CheckoutSessionsController, PublicCheckoutController, CheckoutPageController],
  providers: [
    CheckoutSessionsService,
    CheckoutSessionsRepository,
    ExpireCheckoutSessionsJob,
    CheckoutSettlement,
    CheckoutPageRenderer,
    CheckoutSurface,
    PublicCheckoutService,
    { provide: CheckoutPayments, useClass: BankAppPayments },
    { provide: HostedTransfers, useClass: PaymentsHostedTransfers },
  ],
  exports: [CheckoutSessionsService, CheckoutSessionsRepository, CheckoutSurface, HostedTransfers],
})
export class CheckoutModule {}
