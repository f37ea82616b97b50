import { Injectable } from '@nestjs/common';
import { raw, type Sql } from '../database/sql';

/**
 * When a new invoice is first looked at by the reminder run, which sits above invoices with the
 * reminder days it reads: the billing module registers it when it starts (docs/architecture.md,
 * "When a lower module must let a higher one take part"), so an invoice is inserted with its first
 * reminder time and the run does not claim and rewrite every invoice just billed.
 */
export interface ReminderPartsOfInvoices {
  /**
   * SQL: the time of the first reminder day of an invoice of the environment `environmentId` due
   * at `dueDate` (SQL naming them), never later than the reminder run would first act on it;
   * `'-infinity'` (looked at by the next run) when it has none or no due date.
   */
  firstReminderAt(environmentId: Sql, dueDate: Sql): Sql;
}

/** Where the billing module registers `ReminderPartsOfInvoices`. */
@Injectable()
export class InvoiceReminders {
  private registered?: ReminderPartsOfInvoices;

  register(parts: ReminderPartsOfInvoices): void {
    if (this.registered) throw new Error('the reminder parts of invoices are registered twice');
    this.registered = parts;
  }

  /** Without a registration, `'-infinity'`: the next reminder run looks at the invoice and sets it. */
  firstReminderAt(environmentId: Sql, dueDate: Sql): Sql {
    return this.registered
      ? this.registered.firstReminderAt(environmentId, dueDate)
      : raw(`'-infinity'::timestamptz`);
  }
}
