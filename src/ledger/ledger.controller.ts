import { Controller, Get, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiList } from '../common/http/openapi';
import { API } from '../common/http/routes';
import { BalanceJson, BalanceTransactionJson } from './balance-transaction';
import { ListBalanceTransactionsQuery } from './dto/ledger.dto';
import { LedgerService } from './ledger.service';

@ApiTags('Balance')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(API)
export class LedgerController {
  constructor(private readonly service: LedgerService) {}

  @Get('balance')
  @SecretKey()
  @ApiData(BalanceJson)
  async balance(@Tenant() t: Tenant) {
    return { data: await this.service.balance(t) };
  }

  @Get('balance-transactions')
  @SecretKey()
  @ApiList(BalanceTransactionJson)
  list(@Tenant() t: Tenant, @Query() q: ListBalanceTransactionsQuery) {
    return this.service.list(t, q);
  }
}
