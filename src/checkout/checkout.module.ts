import { Module } from '@nestjs/common';
import { Views } from '../common/http/views';
import { PaymentRequestsModule } from '../payment-requests/payment-requests.module';
import { CheckoutExpiryJob } from './checkout-expiry.job';
import { CheckoutPageController } from './checkout-page.controller';
import { CheckoutPayments, PaymentsNotMergedYet } from './checkout-payments';
import { CheckoutSessionsController } from './checkout-sessions.controller';
import { CheckoutSessionsService } from './checkout-sessions.service';

@Module({
  imports: [PaymentRequestsModule],
  controllers: [CheckoutSessionsController, CheckoutPageController],
  providers: [
    CheckoutSessionsService,
    CheckoutExpiryJob,
    Views,
    // payments: replace with the payments module's implementation at merge time.
    { provide: CheckoutPayments, useClass: PaymentsNotMergedYet },
  ],
  exports: [CheckoutSessionsService],
})
export class CheckoutModule {}
