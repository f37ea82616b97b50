import { PaginationQuery } from '../../common/pagination';
import { EnumField, UuidField } from '../../common/validation/fields';
import { BALANCE_TRANSACTION_TYPES, type BalanceTransactionType } from '../balance-transaction';

export class ListBalanceTransactionsQuery extends PaginationQuery {
  @EnumField(BALANCE_TRANSACTION_TYPES, { optional: true }) type?: BalanceTransactionType;
  @UuidField({ optional: true, description: 'Only what this payout paid out' }) payoutId?: string;
}
