import { PaginationQuery } from '../../common/pagination';
import { EnumField, ExternalIdField, PhoneField, UuidField } from '../../common/validation/fields';
import { CUSTOMER_LANGUAGES, CustomerLanguage } from '../customer';

export class CreateCustomerDto {
  @ExternalIdField({
    description: "The merchant's user ID, unique within the organization",
    example: 'user_42',
  })
  externalUserId!: string;

  @PhoneField({ optional: true, description: "The customer's 8-digit number (+222 and spaces are stripped)" })
  phone?: string;

  @EnumField(CUSTOMER_LANGUAGES, { optional: true, description: 'Default fr' })
  language?: CustomerLanguage;

  @UuidField({
    optional: true,
    description:
      'Sandbox: the test clock the customer and all they own live on (docs/billing.md "Testing with test clocks")',
  })
  testClockId?: string;
}

export class UpdateCustomerDto {
  @ExternalIdField({ optional: true, description: 'A new user ID, unique within the organization' })
  externalUserId?: string;

  @PhoneField({ optional: true, nullable: true, description: 'A new number; null removes it' })
  phone?: string | null;

  @EnumField(CUSTOMER_LANGUAGES, { optional: true })
  language?: CustomerLanguage;
}

export class ListCustomersQuery extends PaginationQuery {
  @UuidField({ optional: true }) id?: string;
  @ExternalIdField({ optional: true }) externalUserId?: string;
}

export class CustomerIdParams {
  @UuidField() id!: string;
}
