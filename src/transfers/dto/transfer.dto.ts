import { PaginationQuery } from '../../common/pagination';
import { EnumField, IntegerField, PhoneField, StringField, UuidField } from '../../common/validation/fields';
import { TRANSFER_STATUSES, TransferStatus } from '../transfer';

export class ListTransfersQuery extends PaginationQuery {
  @EnumField(TRANSFER_STATUSES, { optional: true }) status?: TransferStatus;
}

export class TransferIdParams {
  @UuidField() id!: string;
}

export class AssignTransferDto {
  @UuidField({ description: 'The unpaid payment request of the same amount the transfer pays' })
  paymentRequestId!: string;
}

/** Sandbox: a transfer to the environment's receiving wallet. */
export class SandboxTransferDto {
  @PhoneField({ description: "The payer's wallet: 8-digit local number" })
  payerPhone!: string;

  @IntegerField({ min: 1, max: 100_000_000, description: 'Whole MRU' })
  amount!: number;

  @StringField({
    optional: true,
    maxLength: 60,
    description: 'The member app it came from (default bankily)',
  })
  payerApp?: string;

  @StringField({ optional: true, maxLength: 500 })
  memo?: string;
}
