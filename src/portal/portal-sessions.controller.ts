import { Body, Controller } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { ApiData } from '../common/http/openapi';
import { ApiErrors } from '../common/http/openapi-errors';
import { API, Post } from '../common/http/routes';
import { CustomerError } from '../customers/customers.errors';
import { CreatePortalSessionDto, PortalSessionJson } from './dto/portal-session.dto';
import { PortalService } from './portal.service';

/** Portal links (docs/billing.md "Customer portal"): the merchant hands one to a customer. */
@ApiTags('Customer portal')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/portal-sessions`)
export class PortalSessionsController {
  constructor(private readonly service: PortalService) {}

  @Post()
  @ApiErrors(CustomerError.NotFound)
  @SecretKey()
  @ApiData(PortalSessionJson)
  async create(
    @Tenant() t: Tenant,
    @Body() dto: CreatePortalSessionDto,
  ): Promise<{ data: PortalSessionJson }> {
    const link = await this.service.createLink(t, dto);
    return { data: { url: link.url, expiresAt: link.expiresAt.toISOString() } };
  }
}
