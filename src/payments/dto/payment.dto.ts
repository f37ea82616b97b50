import { Expose, Transform } from 'class-transformer';
import { PaginationQuery } from '../../common/pagination';
import {
  BooleanField,
  EnumField,
  ExternalIdField,
  PhoneField,
  StringField,
  UuidField,
} from '../../common/validation/fields';
import { PAYMENT_STATUSES } from '../payment';

export class PayDto {
  @ExternalIdField({ description: 'The transactionId of the payment request to pay', example: 'order_1042' })
  transactionId!: string;

  @PhoneField({ description: "The customer's 8-digit number at the bank app (+222 and spaces are stripped)" })
  phoneNumber!: string;

  @StringField({
    optional: true,
    maxLength: 32,
    description: 'Bankily only: the customer\'s pass code ("" or absent for the others). Never stored.',
  })
  passCode?: string;

  /** The payment method id; `paymentMethodId` is accepted as an alias (the client libraries' name). */
  @Expose()
  @Transform(
    ({ obj }: { obj: { configurationId?: unknown; paymentMethodId?: unknown } }) =>
      obj.configurationId ?? obj.paymentMethodId,
  )
  @UuidField({ description: 'The id of a payment method of GET /payment-methods (alias: paymentMethodId)' })
  configurationId!: string;

  @UuidField({ optional: true, description: 'Alias of configurationId' })
  paymentMethodId?: string;
}

export class ListPaymentsQuery extends PaginationQuery {
  @ExternalIdField({ optional: true }) transactionId?: string;
  @UuidField({ optional: true }) paymentRequestId?: string;
  @EnumField(PAYMENT_STATUSES, { optional: true }) status?: (typeof PAYMENT_STATUSES)[number];
}

export class PaymentIdParams {
  @UuidField() id!: string;
}

export class PaymentMethodIdParams {
  @UuidField() id!: string;
}

export class SimulateTransferDto {
  @EnumField(['completed', 'failed'], {
    optional: true,
    description: "What the customer's bank does (default completed)",
  })
  outcome?: 'completed' | 'failed';
}

export class PaymentMethodsQuery {
  @StringField({
    optional: true,
    description: 'Accepted for the client libraries; it has no effect (the key decides the environment)',
  })
  isTestingMode?: string;
}

/** PUT /configuration/gimtel: the transfer method's switch and receiving wallet. */
export class GimtelConfigurationDto {
  @StringField({
    optional: true,
    maxLength: 40,
    description:
      'The bank of the receiving wallet: a code of PAYOUT_BANKS or a member app code (e.g. BANKILY)',
  })
  receivingBank?: string;

  @StringField({ optional: true, maxLength: 32, description: 'The receiving wallet: 8-digit local number' })
  receivingPhone?: string;

  @BooleanField({ optional: true, description: 'List the method and take transfers (default true)' })
  enabled?: boolean;
}
