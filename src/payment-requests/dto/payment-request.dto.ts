import { PaginationQuery } from '../../common/pagination';
import {
  EnumField,
  ExternalIdField,
  IntegerField,
  PhoneField,
  UuidField,
} from '../../common/validation/fields';

export class CreatePaymentRequestDto {
  @ExternalIdField({
    description: "The merchant's own order ID, unique per environment",
    example: 'order_1042',
  })
  transactionId!: string;

  @IntegerField({ description: 'Whole MRU, 1 to 100000000', example: 1500 })
  amount!: number;

  @PhoneField({ optional: true, description: "The customer's 8-digit number (+222 and spaces are stripped)" })
  phoneNumber?: string;

  @IntegerField({
    optional: true,
    min: 0,
    max: 100000000,
    description:
      'Acting for a connected account (`Khoums-Account`) only: whole MRU, 0 to the amount, moved to the platform when paid',
  })
  applicationFee?: number;
}

export class ListPaymentRequestsQuery extends PaginationQuery {
  @EnumField(['pending', 'paid'], { optional: true })
  status?: 'pending' | 'paid';

  @UuidField({ optional: true, description: 'Only the requests made by this payment link' })
  paymentLinkId?: string;
}

export class PaymentRequestIdParams {
  @UuidField() id!: string;
}

export class TransactionIdParams {
  @ExternalIdField() transactionId!: string;
}
