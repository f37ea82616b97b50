import { Injectable } from '@nestjs/common';
import { JobSchedule, ScheduledJob } from '../jobs/scheduled-job';
import { SmsSender } from './sms-sender';

/**
 * Sends the SMS waiting to go every SMS_SEND_INTERVAL_MS (0: never from this instance): the
 * sender's claim and lease make every instance safe to run it (SmsSender).
 */
@Injectable()
export class SendSmsJob extends ScheduledJob {
  readonly schedule: JobSchedule = {
    name: 'send-sms',
    every: 'SMS_SEND_INTERVAL_MS',
    switch: 'SMS_SEND_INTERVAL_MS',
  };

  constructor(private readonly sender: SmsSender) {
    super();
  }

  protected work(): Promise<Record<string, number>> {
    return this.sender.sendDue();
  }
}
