import { PaginationQuery } from '../../common/pagination';
import { ExternalIdField, UuidField } from '../../common/validation/fields';

export class ListInvoicesQuery extends PaginationQuery {
  @UuidField({ optional: true }) id?: string;
  @ExternalIdField({ optional: true, description: "The customer's externalUserId" }) externalUserId?: string;
  @UuidField({ optional: true }) subscriptionId?: string;
}

export class InvoiceIdParams {
  @UuidField() id!: string;
}
