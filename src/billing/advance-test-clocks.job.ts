import { Injectable } from '@nestjs/common';
import { JobSchedule, ScheduledJob } from '../jobs/scheduled-job';
import { AdvanceCounts, TestClockAdvance } from './test-clock-advance';

/**
 * Advances the Sandbox test clocks asked to advance (TEST_CLOCK_INTERVAL_MS), and takes over those
 * whose instance died mid-advance once their claim ran out (TestClockAdvance). The advance route
 * starts a tick at once on the instance that answered it.
 */
@Injectable()
export class AdvanceTestClocksJob extends ScheduledJob {
  readonly schedule: JobSchedule = {
    name: 'advance-test-clocks',
    every: 'TEST_CLOCK_INTERVAL_MS',
    switch: 'TEST_CLOCK_INTERVAL_MS',
  };

  constructor(private readonly advance: TestClockAdvance) {
    super();
  }

  protected work(): Promise<AdvanceCounts> {
    return this.advance.run();
  }
}
