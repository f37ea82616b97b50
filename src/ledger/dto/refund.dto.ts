import { PaginationQuery } from '../../common/pagination';
import { EnumField, IntegerField, StringField, UuidField } from '../../common/validation/fields';
import { REFUND_STATUSES, type RefundStatus } from '../refund';

export class CreateRefundDto {
  @UuidField({ description: 'The completed payment to refund' })
  paymentId!: string;

  @IntegerField({ optional: true, description: 'Whole MRU > 0; default: what is left to refund' })
  amount?: number;

  @StringField({ optional: true, maxLength: 500, description: 'Why (shown to you, not sent to the payer)' })
  reason?: string;
}

export class ListRefundsQuery extends PaginationQuery {
  @UuidField({ optional: true }) paymentId?: string;
  @EnumField(REFUND_STATUSES, { optional: true }) status?: RefundStatus;
}

export class RefundIdParams {
  @UuidField() id!: string;
}
