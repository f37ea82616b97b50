import { PaginationQuery } from '../../common/pagination';
import { DateTimeField, StringField, UuidField } from '../../common/validation/fields';

/** The longest name of a clock (the dashboard's field stops there too). */
export const TEST_CLOCK_NAME_MAX = 200;

export class CreateTestClockDto {
  @DateTimeField({ description: 'The time the clock starts at (its customers are created at it)' })
  frozenTime!: string;

  @StringField({ optional: true, maxLength: TEST_CLOCK_NAME_MAX, description: 'A name to tell clocks apart' })
  name?: string;
}

export class AdvanceTestClockDto {
  @DateTimeField({ description: 'The new time: later than the clock, by at most two years' })
  frozenTime!: string;
}

export class ListTestClocksQuery extends PaginationQuery {}

export class TestClockIdParams {
  @UuidField() id!: string;
}
