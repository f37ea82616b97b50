import { Body, Controller, Get } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Tenant } from '../auth/tenant';
import { ApiData } from '../common/http/openapi';
import { API, Patch } from '../common/http/routes';
import { BillingSettingsJson } from './billing-settings';
import { BillingSettingsService } from './billing-settings.service';
import { UpdateBillingSettingsDto } from './dto/billing-settings.dto';

/** The key's environment's billing settings (docs/billing.md "Reminders, SMS and dunning"). */
@ApiTags('Billing')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/billing-settings`)
export class BillingSettingsController {
  constructor(private readonly settings: BillingSettingsService) {}

  @Get()
  @ApiData(BillingSettingsJson)
  async get(@Tenant() t: Tenant) {
    return { data: await this.settings.get(t.environmentId) };
  }

  @Patch()
  @ApiData(BillingSettingsJson)
  async update(@Tenant() t: Tenant, @Body() dto: UpdateBillingSettingsDto) {
    return { data: await this.settings.update(t.environmentId, dto) };
  }
}
