import { ArrayNotEmpty } from 'class-validator';
import { PaginationQuery } from '../../common/pagination';
import {
  BooleanField,
  EnumArrayField,
  EnumField,
  Msg,
  UrlField,
  UuidField,
} from '../../common/validation/fields';
import { EVENT_KINDS, EventKind } from '../event-kinds';
import { DELIVERY_STATUSES, DeliveryStatus } from '../webhook';

export class CreateWebhookEndpointDto {
  @UrlField({
    description: 'Where deliveries are POSTed: an absolute http(s) URL',
    example: 'https://merchant.example.com/webhooks/khoums',
  })
  url!: string;

  @EnumArrayField(EVENT_KINDS, {
    optional: true,
    description: 'Event kinds to receive; default: the six payment and checkout kinds',
  })
  @ArrayNotEmpty({ message: Msg.expected('a non-empty array') })
  events?: EventKind[];

  @BooleanField({ optional: true, description: 'Default true' })
  enabled?: boolean;

  @BooleanField({
    optional: true,
    description:
      "A platform's endpoint only: also receive the events of its connected accounts (the body gains `account`, the request `x-khoums-account`). Default false",
  })
  connected?: boolean;
}

export class UpdateWebhookEndpointDto {
  @UrlField({ optional: true }) url?: string;
  @EnumArrayField(EVENT_KINDS, { optional: true })
  @ArrayNotEmpty({ message: Msg.expected('a non-empty array') })
  events?: EventKind[];
  @BooleanField({ optional: true, description: 'Re-enabling resumes pending deliveries' }) enabled?: boolean;
}

export class SendTestEventDto {
  @EnumField(EVENT_KINDS, {
    optional: true,
    description: 'Default payment-request-created (or the first kind the endpoint receives)',
  })
  event?: EventKind;
}

export class ListWebhookDeliveriesQuery extends PaginationQuery {
  @UuidField({ optional: true }) endpointId?: string;
  @EnumField(EVENT_KINDS, { optional: true }) event?: EventKind;
  @EnumField(DELIVERY_STATUSES, { optional: true }) status?: DeliveryStatus;
}

export class WebhookIdParams {
  @UuidField() id!: string;
}
