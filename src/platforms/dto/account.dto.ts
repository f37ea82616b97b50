import { ApiProperty } from '@nestjs/swagger';
import { MaxLength } from 'class-validator';
import { VerificationJson } from '../../organizations/account';
import { Msg, StringField, UrlField, UuidField } from '../../common/validation/fields';

/** The longest organization name, shared by the API and the dashboard's sign-up form. */
export const ORGANIZATION_NAME_MAX = 200;

export class CreateAccountDto {
  @StringField({
    minLength: 1,
    maxLength: ORGANIZATION_NAME_MAX,
    description: "The merchant's name",
    example: 'Boutique Nour',
  })
  name!: string;

  @StringField({
    maxLength: 254,
    description:
      "The merchant's email: the owner of its dashboard, who sets a password through an onboarding link",
    example: 'owner@boutique-nour.mr',
  })
  email!: string;
}

export class CreateOnboardingLinkDto {
  @UrlField({ description: 'Where the merchant lands once they applied to go live' })
  @MaxLength(2048, { message: Msg.expected('an absolute http(s) URL of at most 2048 characters') })
  returnUrl!: string;

  @UrlField({ description: 'Where a used or expired link sends the merchant (make a new link there)' })
  @MaxLength(2048, { message: Msg.expected('an absolute http(s) URL of at most 2048 characters') })
  refreshUrl!: string;
}

export class AccountIdParams {
  @UuidField() id!: string;
}

/** A merchant organization connected to the platform. */
export class AccountJsonDoc {
  @ApiProperty({
    format: 'uuid',
    description: "The connected organization's id (the `Khoums-Account` value)",
  })
  id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
  @ApiProperty({
    type: VerificationJson,
    description: "The account's verification, as GET /organization shows it",
  })
  verification!: VerificationJson;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class OnboardingLinkJson {
  @ApiProperty({
    format: 'uri',
    description: 'Single use: the merchant sets their password, then applies to go live',
  })
  url!: string;
  @ApiProperty({ format: 'date-time', description: 'One hour after creation' }) expiresAt!: string;
}
