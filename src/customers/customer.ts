import { ApiProperty } from '@nestjs/swagger';
import { raw } from '../database/sql';

export const CUSTOMER_LANGUAGES = ['fr', 'ar', 'en'] as const;
/** The language Khoums writes to the customer in (reminders by SMS, the portal). */
export type CustomerLanguage = (typeof CUSTOMER_LANGUAGES)[number];

/** A customer of a merchant: shared by both environments of the organization. */
export interface Customer {
  id: string;
  organizationId: string;
  externalUserId: string;
  phone: string | null;
  language: CustomerLanguage;
  /** Whole MRU owed to the customer (a prorated downgrade), taken off their next invoices. */
  creditBalance: number;
  /** The Sandbox test clock the customer, and all they own, live on (null: the real clock). */
  testClockId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of a customer under the alias `c`, named as Customer's properties. */
export const CUSTOMER_COLUMNS = raw(
  `c.id, c.organization_id AS "organizationId", c.external_user_id AS "externalUserId", c.phone, c.language,
   c.credit_balance AS "creditBalance", c.test_clock_id AS "testClockId", c.created_at AS "createdAt", c.updated_at AS "updatedAt"`,
);

/** The customer record, as the API shows it. */
export class CustomerJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: "The merchant's user ID, unique within the organization" })
  externalUserId!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "8-digit local number, used for the customer's payment requests",
  })
  phone!: string | null;
  @ApiProperty({
    enum: CUSTOMER_LANGUAGES,
    description: 'The language of the texts Khoums sends the customer (reminders by SMS, the portal)',
  })
  language!: CustomerLanguage;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Whole MRU owed to the customer (a plan change prorated down), taken off their next invoices (docs/billing.md)',
  })
  creditBalance!: number;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'The Sandbox test clock the customer and all they own live on (docs/billing.md "Testing with test clocks")',
  })
  testClockId!: string | null;
  @ApiProperty({ format: 'uuid' }) organizationId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export function toCustomerJson(c: Customer): CustomerJson {
  return {
    id: c.id,
    externalUserId: c.externalUserId,
    phone: c.phone,
    language: c.language,
    creditBalance: c.creditBalance,
    testClockId: c.testClockId,
    organizationId: c.organizationId,
    createdAt: c.createdAt.toISOString(),
  };
}
