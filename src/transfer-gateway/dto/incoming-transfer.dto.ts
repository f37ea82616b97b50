import { DateTimeField, IntegerField, PhoneField, StringField } from '../../common/validation/fields';

/**
 * One incoming transfer as a bank gateway sends it, notified or polled (docs/bank-gateway.md
 * "Incoming transfers"). Unknown fields are dropped.
 */
export class IncomingTransferDto {
  @StringField({ minLength: 1, maxLength: 200, description: "The bank's reference of the transfer" })
  id!: string;

  @StringField({ minLength: 1, maxLength: 50, description: 'The bank of the receiving wallet' })
  receivingBank!: string;

  @PhoneField({ description: 'The receiving wallet' })
  receivingPhone!: string;

  @PhoneField({ description: "The payer's wallet" })
  payerPhone!: string;

  @StringField({ minLength: 1, maxLength: 50, description: 'The member app the payer sent from' })
  payerApp!: string;

  @IntegerField({ min: 1, max: 1_000_000_000, description: 'MRU' })
  amount!: number;

  @DateTimeField({ description: 'When the receiving bank received it' })
  receivedAt!: string;

  @StringField({ optional: true, maxLength: 500, description: "The payer's note" })
  memo?: string;
}
