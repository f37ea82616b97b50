import { Injectable } from '@nestjs/common';
import { JobSchedule, ScheduledJob } from '../jobs/scheduled-job';
import { ApiKeysService } from './api-keys.service';

/**
 * Writes the last-used times of the keys this instance served since its last flush, every 30 s
 * (API_KEY_LAST_USED_SCHEDULER; off, they are written when the instance stops): one statement for
 * all of them rather than one per request. Each instance writes its own keys.
 */
@Injectable()
export class FlushLastUsedTimesJob extends ScheduledJob {
  readonly schedule: JobSchedule = {
    name: 'flush-last-used-times',
    every: 30_000,
    switch: 'API_KEY_LAST_USED_SCHEDULER',
  };

  constructor(private readonly keys: ApiKeysService) {
    super();
  }

  protected work(): Promise<void> {
    return this.keys.flushLastUsed();
  }
}
