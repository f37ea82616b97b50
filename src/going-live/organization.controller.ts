import { Controller, Get, Param } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { ApiData } from '../common/http/openapi';
import { API } from '../common/http/routes';
import { ApiErrors } from '../common/http/openapi-errors';
import { StringField } from '../common/validation/fields';
import { OrganizationJson } from '../organizations/account';
import { OrganizationError, organizationError } from '../organizations/organizations.errors';
import { AccountService } from './account.service';

export class OrganizationIdParams {
  @StringField({ maxLength: 100, description: "The organization's id" }) id!: string;
}

@ApiTags('Organization')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/organization`)
export class OrganizationController {
  constructor(private readonly accounts: AccountService) {}

  /** The key's organization: its verification for Production and its payout account. */
  @Get()
  @SecretKey()
  @ApiData(OrganizationJson)
  async get(@Tenant() t: Tenant) {
    return { data: await this.accounts.json(t.organizationId) };
  }

  /** The same record by id (Moosyl's clients ask so): only the key's own organization. */
  @Get(':id')
  @ApiErrors(OrganizationError.OrganizationNotFound)
  @SecretKey()
  @ApiData(OrganizationJson)
  async getById(@Tenant() t: Tenant, @Param() p: OrganizationIdParams) {
    if (p.id.toLowerCase() !== t.organizationId)
      throw organizationError(OrganizationError.OrganizationNotFound);
    return { data: await this.accounts.json(t.organizationId) };
  }
}
