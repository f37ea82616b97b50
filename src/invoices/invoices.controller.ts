import { ReadsReplica } from '../database/reads-replica';
import { Body, Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiCsv, WantsCsv } from '../common/http/csv';
import { ApiHeader, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiList } from '../common/http/openapi';
import { API, Post } from '../common/http/routes';
import { CommonError } from '../common/errors/common-errors';
import { PaymentError } from '../payments/payments.errors';
import {
  InvoiceIdParams,
  InvoicePdfQuery,
  ListInvoicesQuery,
  RecordManualPaymentDto,
} from './dto/invoice.dto';
import { InvoiceJson } from './invoice';
import { InvoicesService } from './invoices.service';
import { ApiErrors } from '../common/http/openapi-errors';
import { InvoiceError } from './invoices.errors';

@ApiTags('Invoices')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/invoices`)
export class InvoicesController {
  constructor(private readonly service: InvoicesService) {}

  @ReadsReplica('csv')
  @Get()
  @ApiList(InvoiceJson)
  @ApiCsv()
  list(@Tenant() t: Tenant, @Query() q: ListInvoicesQuery, @WantsCsv() csv: boolean) {
    return csv ? this.service.csv(t, q) : this.service.list(t, q);
  }

  @Post(':id/payments')
  @ApiErrors(
    InvoiceError.NotFound,
    InvoiceError.NotPending,
    InvoiceError.AmountExceedsDue,
    PaymentError.InProgress,
    CommonError.AmountNotPositive,
    CommonError.AmountTooLarge,
  )
  @ApiData(InvoiceJson)
  async recordPayment(@Tenant() t: Tenant, @Param() p: InvoiceIdParams, @Body() dto: RecordManualPaymentDto) {
    return { data: await this.service.recordManualPayment(t, p.id, dto) };
  }

  @Get(':id/pdf')
  @ApiErrors(InvoiceError.NotFound)
  @ApiProduces('application/pdf')
  @ApiOkResponse({
    description: 'The invoice as a PDF (docs/billing.md "The PDF invoice")',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  async pdf(
    @Tenant() t: Tenant,
    @Param() p: InvoiceIdParams,
    @Query() q: InvoicePdfQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { number, body } = await this.service.pdf(t, p.id, q.lang ?? 'fr');
    void reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${number}.pdf"`);
    return body;
  }

  @Get(':id')
  @ApiErrors(InvoiceError.NotFound)
  @ApiData(InvoiceJson)
  async get(@Tenant() t: Tenant, @Param() p: InvoiceIdParams) {
    return { data: await this.service.get(t, p.id) };
  }
}
