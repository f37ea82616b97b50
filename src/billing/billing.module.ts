import { Module } from '@nestjs/common';
import { InvoicesModule } from '../invoices/invoices.module';
import { PaymentsModule } from '../payments/payments.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { BillingController } from './billing.controller';
import { BillingRepository } from './billing.repository';
import { BillingSettingsController } from './billing-settings.controller';
import { BillingSettingsService } from './billing-settings.service';
import { BillingRun } from './billing-run';
import { ReminderRun } from './reminder-run';
import { SendRemindersJob } from './send-reminders.job';
import { DunningRun } from './dunning-run';
import { SmsGateway } from './sms-gateway';
import { SmsSender } from './sms-sender';
import { BillSubscriptionsJob } from './bill-subscriptions.job';
import { SendSmsJob } from './send-sms.job';
import { BillingSettlement } from './billing-settlement';
import { SandboxBillingGuard } from './sandbox-billing.guard';
import { RemindersOfInvoices } from './reminders-of-invoices';
import { SmsLogService } from './sms-log.service';
import { TestClocksModule } from '../test-clocks/test-clocks.module';
import { TestClocksController } from './test-clocks.controller';
import { TestClockAdvance } from './test-clock-advance';
import { AdvanceTestClocksJob } from './advance-test-clocks.job';
import { TestClockDeletion } from './test-clock-deletion';

@Module({
  imports: [SubscriptionsModule, PaymentsModule, InvoicesModule, TestClocksModule],
  controllers: [BillingController, BillingSettingsController, TestClocksController],
  providers: [
    BillingRepository,
    BillingSettingsService,
    BillingRun,
    ReminderRun,
    SendRemindersJob,
    DunningRun,
    SmsGateway,
    SmsLogService,
    SmsSender,
    BillSubscriptionsJob,
    SendSmsJob,
    BillingSettlement,
    SandboxBillingGuard,
    RemindersOfInvoices,
    TestClockAdvance,
    AdvanceTestClocksJob,
    TestClockDeletion,
  ],
  exports: [
    BillingRun,
    ReminderRun,
    DunningRun,
    SmsSender,
    SmsLogService,
    SmsGateway,
    BillingRepository,
    BillingSettingsService,
    TestClockDeletion,
    AdvanceTestClocksJob,
  ],
})
export class BillingModule {}
