import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiList } from '../common/http/openapi';
import { ApiErrors } from '../common/http/openapi-errors';
import { API, Post } from '../common/http/routes';
import { PaginationQuery, pageOf } from '../common/pagination';
import { ConnectedAccountsService } from '../organizations/connected-accounts.service';
import { OrganizationError } from '../organizations/organizations.errors';
import {
  AccountIdParams,
  AccountJsonDoc,
  CreateAccountDto,
  CreateOnboardingLinkDto,
  OnboardingLinkJson,
} from './dto/account.dto';

/** A platform's connected merchant accounts (docs/platforms.md). */
@ApiTags('Connected accounts')
@ApiHeader({ name: 'Authorization', description: "A platform's secret API key (sk_…)", required: true })
@ApiErrors(OrganizationError.OnlyPlatforms)
@Controller(`${API}/accounts`)
export class AccountsController {
  constructor(private readonly accounts: ConnectedAccountsService) {}

  @Post()
  @ApiErrors(OrganizationError.InvalidEmail, OrganizationError.AccountEmailTaken)
  @SecretKey()
  @ApiData(AccountJsonDoc)
  async create(@Tenant() t: Tenant, @Body() dto: CreateAccountDto) {
    return { data: await this.accounts.create(t, dto) };
  }

  @Get()
  @SecretKey()
  @ApiList(AccountJsonDoc)
  list(@Tenant() t: Tenant, @Query() q: PaginationQuery) {
    return this.accounts.list(t, pageOf(q));
  }

  @Get(':id')
  @SecretKey()
  @ApiData(AccountJsonDoc)
  async get(@Tenant() t: Tenant, @Param() p: AccountIdParams) {
    return { data: await this.accounts.get(t, p.id) };
  }

  @Post(':id/onboarding-link')
  @SecretKey()
  @ApiData(OnboardingLinkJson)
  async onboardingLink(
    @Tenant() t: Tenant,
    @Param() p: AccountIdParams,
    @Body() dto: CreateOnboardingLinkDto,
  ) {
    return { data: await this.accounts.createOnboardingLink(t, p.id, dto) };
  }
}
