import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { normalizedUrl } from '../../checkout/dto/checkout-session.dto';
import { UrlField, UuidField } from '../../common/validation/fields';

export class CreatePortalSessionDto {
  @UuidField({ description: 'A customer of the organization' })
  customerId!: string;

  @UrlField({ optional: true, description: 'Where the portal\'s "back" link leads (the merchant\'s site)' })
  @Transform(({ value }) => normalizedUrl(value))
  returnUrl?: string;
}

export class PortalSessionJson {
  @ApiProperty({
    format: 'uri',
    description:
      "Signs the customer in to the portal of the key's environment; hand it to this customer only",
  })
  url!: string;

  @ApiProperty({ format: 'date-time', description: 'One hour after creation' })
  expiresAt!: string;
}
