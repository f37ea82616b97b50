import { ReadsReplica } from '../database/reads-replica';
import { ApiCsv, WantsCsv } from '../common/http/csv';
import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiOkResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../common/http/openapi-errors';
import { SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiList } from '../common/http/openapi';
import { API } from '../common/http/routes';
import { BalanceJson, BalanceTransactionJson } from './balance-transaction';
import { ListBalanceTransactionsQuery } from './dto/ledger.dto';
import { SettlementReportQuery } from './dto/report.dto';
import { LedgerError } from './ledger.errors';
import { settlementCsv, SettlementRowJson } from './settlement-report';
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

  @ReadsReplica('csv')
  @Get('balance-transactions')
  @SecretKey()
  @ApiList(BalanceTransactionJson)
  @ApiCsv()
  list(@Tenant() t: Tenant, @Query() q: ListBalanceTransactionsQuery, @WantsCsv() csv: boolean) {
    return csv ? this.service.csv(t, q) : this.service.list(t, q);
  }

  /** JSON, or with `Accept: text/csv` the same rows as CSV with a header line. */
  @ReadsReplica('csv')
  @Get('reports/settlement')
  @ApiErrors(LedgerError.ReportRange)
  @SecretKey()
  @ApiExtraModels(SettlementRowJson)
  @ApiOkResponse({
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['data'],
          properties: { data: { type: 'array', items: { $ref: getSchemaPath(SettlementRowJson) } } },
        },
      },
      'text/csv': {
        schema: { type: 'string', description: 'date,paymentMethod,payments,gross,fees,refunds,net' },
      },
    },
  })
  async settlement(
    @Tenant() t: Tenant,
    @Query() q: SettlementReportQuery,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const rows = await this.service.settlement(t, q.from, q.to);
    if (!accept?.includes('text/csv')) return { data: rows };
    void res
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="settlement-${q.from}-${q.to}.csv"`);
    return settlementCsv(rows);
  }
}
