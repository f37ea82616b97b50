import { PaginationQuery } from '../../common/pagination';
import { EnumField, IntegerField, StringField, UuidField } from '../../common/validation/fields';
import { REFUND_STATUSES, type RefundStatus } from '../refund';

/** The longest refund `reason`, shared by the API and the dashboard's refund form. */
export const REFUND_REASON_MAX = 500;

export class CreateRefundDto {
  @UuidField({ description: 'The completed payment to refund' })
  paymentId!: string;

  @IntegerField({ optional: true, description: 'Whole MRU > 0; default: what is left to refund' })
  amount?: number;

  @StringField({
    optional: true,
    maxLength: REFUND_REASON_MAX,
    description: 'Why (shown to you, not sent to the payer)',
  })
  reason?: string;
}

export class ListRefundsQuery extends PaginationQuery {
  @UuidField({ optional: true }) paymentId?: string;
  @EnumField(REFUND_STATUSES, { optional: true }) status?: RefundStatus;
}

export class RefundIdParams {
  @UuidField() id!: string;
}
