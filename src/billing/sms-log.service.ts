import { Injectable } from '@nestjs/common';
import { BillingRepository, SmsLogEntry } from './billing.repository';

/** The SMS the billing sent or is sending, as their log shows them (the dashboard's invoice page). */
@Injectable()
export class SmsLogService {
  constructor(private readonly repo: BillingRepository) {}

  /** The SMS of an invoice of the environment, oldest first. */
  ofInvoice(environmentId: string, invoiceId: string): Promise<SmsLogEntry[]> {
    return this.repo.smsOfInvoice(environmentId, invoiceId);
  }
}
