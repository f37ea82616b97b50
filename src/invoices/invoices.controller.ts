import { ApiCsv, WantsCsv } from '../common/http/csv';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiList } from '../common/http/openapi';
import { API } from '../common/http/routes';
import { InvoiceIdParams, ListInvoicesQuery } from './dto/invoice.dto';
import { InvoiceJson } from './invoice';
import { InvoicesService } from './invoices.service';
import { ApiErrors } from '../common/http/openapi-errors';
import { InvoiceError } from './invoices.errors';

@ApiTags('Invoices')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/invoices`)
export class InvoicesController {
  constructor(private readonly service: InvoicesService) {}

  @Get()
  @ApiList(InvoiceJson)
  @ApiCsv()
  list(@Tenant() t: Tenant, @Query() q: ListInvoicesQuery, @WantsCsv() csv: boolean) {
    return csv ? this.service.csv(t, q) : this.service.list(t, q);
  }

  @Get(':id')
  @ApiErrors(InvoiceError.NotFound)
  @ApiData(InvoiceJson)
  async get(@Tenant() t: Tenant, @Param() p: InvoiceIdParams) {
    return { data: await this.service.get(t, p.id) };
  }
}
