import { Module } from '@nestjs/common';
import { DeliveryWorker } from './delivery-worker';
import { EventRetentionJob } from './event-retention.job';
import { WebhookDeliveriesController, WebhookEndpointsController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

@Module({
  controllers: [WebhookEndpointsController, WebhookDeliveriesController],
  providers: [WebhooksService, WebhooksRepository, DeliveryWorker, EventRetentionJob],
  exports: [WebhooksService, WebhooksRepository, DeliveryWorker],
})
export class WebhooksModule {}
