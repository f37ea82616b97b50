import { Controller, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Tenant } from '../auth/tenant';
import { ApiData } from '../common/http/openapi';
import { API, Post } from '../common/http/routes';
import { ReminderRun } from './reminder-run';
import { DunningRun } from './dunning-run';
import { BillingRun, BillingRunJson } from './billing-run';
import { SandboxBillingGuard } from './sandbox-billing.guard';
import { ApiErrors } from '../common/http/openapi-errors';
import { BillingError } from './billing.errors';

@ApiTags('Billing')
@ApiHeader({ name: 'Authorization', description: 'Sandbox secret API key (sk_test_…)', required: true })
@Controller(`${API}/sandbox/billing`)
export class BillingController {
  constructor(
    private readonly billing: BillingRun,
    private readonly reminders: ReminderRun,
    private readonly dunning: DunningRun,
  ) {}

  /** Runs billing now for the key's sandbox environment, then its reminders and dunning: what the every-minute run would do there. */
  @Post('run')
  @ApiErrors(BillingError.RunsSandboxOnly)
  @UseGuards(SandboxBillingGuard)
  @ApiData(BillingRunJson)
  async run(@Tenant() t: Tenant) {
    const billed = await this.billing.run({ environmentId: t.environmentId });
    await this.reminders.run({ environmentId: t.environmentId });
    const dunned = await this.dunning.run({ environmentId: t.environmentId });
    return { data: { ...billed, subscriptionsUpdated: billed.subscriptionsUpdated + dunned } };
  }
}
