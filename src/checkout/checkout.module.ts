import { Module } from '@nestjs/common';
import { Views } from '../common/http/views';
import { PaymentsModule } from '../payments/payments.module';
import { PaymentRequestsModule } from '../payment-requests/payment-requests.module';
import { CheckoutExpiryJob } from './checkout-expiry.job';
import { CheckoutPageController } from './checkout-page.controller';
import { BankAppPayments, CheckoutPayments } from './checkout-payments';
import { CheckoutSessionsController } from './checkout-sessions.controller';
import { CheckoutSessionsService } from './checkout-sessions.service';

@Module({
  imports: [PaymentRequestsModule, PaymentsModule],
  controllers: [CheckoutSessionsController, CheckoutPageController],
  providers: [
    CheckoutSessionsService,
    CheckoutExpiryJob,
    Views,
    { provide: CheckoutPayments, useClass: BankAppPayments },
  ],
  exports: [CheckoutSessionsService],
})
export class CheckoutModule {}
