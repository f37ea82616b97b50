import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveryWorker } from './delivery-worker';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './webhook.entities';
import { WebhookDeliveriesController, WebhookEndpointsController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery, WebhookAttempt])],
  controllers: [WebhookEndpointsController, WebhookDeliveriesController],
  providers: [WebhooksService, DeliveryWorker],
  exports: [WebhooksService, DeliveryWorker],
})
export class WebhooksModule {}
