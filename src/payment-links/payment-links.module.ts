import { Module } from '@nestjs/common';
import { CheckoutModule } from '../checkout/checkout.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { PaymentRequestsModule } from '../payment-requests/payment-requests.module';
import { PaymentsModule } from '../payments/payments.module';
import { LinkPageController } from './link-page.controller';
import { LinkPageRenderer } from './link-page.renderer';
import { LinkSurface } from './link-surface';
import { PaymentLinksController } from './payment-links.controller';
import { PaymentLinksRepository } from './payment-links.repository';
import { PaymentLinksService } from './payment-links.service';
import { QrCodes } from './qr-codes';

/** Payment links and their QR codes (docs/payment-links.md): the API, and the page at /l/<code>. */
@Module({
  imports: [PaymentRequestsModule, PaymentsModule, CheckoutModule, IdempotencyModule],
  controllers: [PaymentLinksController, LinkPageController],
  providers: [PaymentLinksService, PaymentLinksRepository, LinkSurface, LinkPageRenderer, QrCodes],
  exports: [PaymentLinksService, PaymentLinksRepository],
})
export class PaymentLinksModule {}
