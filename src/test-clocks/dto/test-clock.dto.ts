import { PaginationQuery } from '../../common/pagination';
import { DateTimeField, StringField, UuidField } from '../../common/validation/fields';

export class CreateTestClockDto {
  @DateTimeField({ description: 'The time the clock starts at (its customers are created at it)' })
  frozenTime!: string;

  @StringField({ optional: true, maxLength: 200, description: 'A name to tell clocks apart' })
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
