import { DateTimeField, IntegerField, PredicateField, StringField } from '../../common/validation/fields';
import { normalizePhone } from '../../common/validation/rules';

const isPhone = (v: unknown) => typeof v === 'string' && normalizePhone(v) !== null;
/** A bank's code as the transfers are kept (upper-cased): BANKILY, BCI_PAY. */
const isBankCode = (v: unknown) => typeof v === 'string' && /^[A-Za-z][A-Za-z0-9_]{1,39}$/.test(v);

/**
 * One incoming transfer as a bank gateway sends it, notified or polled (docs/bank-gateway.md
 * "Incoming transfers"). Unknown fields are dropped. Phones may carry +222 and spaces.
 */
export class IncomingTransferDto {
  @StringField({ minLength: 1, maxLength: 200, description: "The bank's reference of the transfer" })
  id!: string;

  @PredicateField('string (a bank code, 2-40 letters, digits or _)', isBankCode, { type: 'string' })
  receivingBank!: string;

  @PredicateField('string (8-digit Mauritanian number)', isPhone, { type: 'string' })
  receivingPhone!: string;

  @PredicateField('string (8-digit Mauritanian number)', isPhone, { type: 'string' })
  payerPhone!: string;

  @StringField({ minLength: 1, maxLength: 60, description: 'The member app the payer sent from' })
  payerApp!: string;

  @IntegerField({ min: 1, max: 100_000_000, description: 'MRU' })
  amount!: number;

  @DateTimeField({ description: 'When the receiving bank received it' })
  receivedAt!: string;

  @StringField({ optional: true, maxLength: 500, description: "The payer's note" })
  memo?: string;
}
