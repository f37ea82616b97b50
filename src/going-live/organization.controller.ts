import { Controller, Get } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { ApiData } from '../common/http/openapi';
import { API } from '../common/http/routes';
import { OrganizationJson } from '../organizations/account';
import { AccountService } from './account.service';

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
}
