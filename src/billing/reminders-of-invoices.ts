import { Injectable, OnModuleInit } from '@nestjs/common';
import { InvoiceReminders } from '../invoices/invoice-reminders';
import { firstReminderAtOf } from './billing.fragments';

/** Gives invoices, below billing, their first reminder time, from the environment's reminder days. */
@Injectable()
export class RemindersOfInvoices implements OnModuleInit {
  constructor(private readonly invoiceReminders: InvoiceReminders) {}

  onModuleInit(): void {
    this.invoiceReminders.register({ firstReminderAt: firstReminderAtOf });
  }
}
