import { Module } from '@nestjs/common';
import { DeliveryWorker } from './delivery-worker';
import { PruneEventsJob } from './prune-events.job';
import { WebhookDeliveriesController, WebhookEndpointsController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

@Module({
  controllers: [WebhookEndpointsController, WebhookDeliveriesController],
  providers: [WebhooksService, WebhooksRepository, DeliveryWorker, PruneEventsJob],
  exports: [WebhooksService, WebhooksRepository, DeliveryWorker],
})
export class WebhooksModule {}
