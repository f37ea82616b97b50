import { Controller, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Tenant } from '../auth/tenant';
import { ApiData } from '../common/http/openapi';
import { API, Post } from '../common/http/routes';
import { BillingRun, BillingRunJson } from './billing-run';
import { SandboxBillingGuard } from './sandbox-billing.guard';
import { ApiErrors } from '../common/http/openapi-errors';
import { BillingError } from './billing.errors';

@ApiTags('Billing')
@ApiHeader({ name: 'Authorization', description: 'Sandbox secret API key (sk_test_…)', required: true })
@Controller(`${API}/sandbox/billing`)
export class BillingController {
  constructor(private readonly billing: BillingRun) {}

  /** Runs billing now for the key's sandbox environment: what the every-minute run would bill there. */
  @Post('run')
  @ApiErrors(BillingError.RunsSandboxOnly)
  @UseGuards(SandboxBillingGuard)
  @ApiData(BillingRunJson)
  async run(@Tenant() t: Tenant) {
    return { data: await this.billing.run({ environmentId: t.environmentId }) };
  }
}
