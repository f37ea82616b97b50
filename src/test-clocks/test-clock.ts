import { ApiProperty } from '@nestjs/swagger';
import { raw } from '../database/sql';

export const TEST_CLOCK_STATUSES = ['ready', 'advancing'] as const;
export type TestClockStatus = (typeof TEST_CLOCK_STATUSES)[number];

/** The longest advance one call asks for (docs/billing.md "Testing with test clocks"). */
export const MAX_ADVANCE_YEARS = 2;

/** A Sandbox test clock: the time its customers, and all they own, live at. */
export interface TestClock {
  id: string;
  organizationId: string;
  environmentId: string;
  name: string | null;
  /** The time asked for: where the clock is, or goes while advancing. */
  frozenTime: Date;
  /** The time the advance has reached (its objects' time now); `frozenTime` once ready. */
  position: Date;
  status: TestClockStatus;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of a clock under the alias `t`, named as TestClock's properties. */
export const TEST_CLOCK_COLUMNS = raw(
  `t.id, t.organization_id AS "organizationId", t.environment_id AS "environmentId", t.name,
   t.frozen_time AS "frozenTime", t.position, t.status, t.created_at AS "createdAt", t.updated_at AS "updatedAt"`,
);

/** The clock, as the API shows it. */
export class TestClockJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({
    format: 'date-time',
    description: 'The time of the clock (while advancing: the time it is advancing to)',
  })
  frozenTime!: string;
  @ApiProperty({
    enum: TEST_CLOCK_STATUSES,
    description: 'advancing: the time-driven work up to frozenTime is being done; ready: done',
  })
  status!: TestClockStatus;
  @ApiProperty({
    format: 'date-time',
    description: 'How far the advance has got (equal to frozenTime once ready)',
  })
  advancedTo!: string;
  @ApiProperty({ format: 'uuid' }) environmentId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export function toTestClockJson(c: TestClock): TestClockJson {
  return {
    id: c.id,
    name: c.name,
    frozenTime: c.frozenTime.toISOString(),
    status: c.status,
    advancedTo: c.position.toISOString(),
    environmentId: c.environmentId,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** The furthest time one advance from `from` may ask for: two years later. */
export function advanceLimit(from: Date): Date {
  const limit = new Date(from);
  limit.setUTCFullYear(limit.getUTCFullYear() + MAX_ADVANCE_YEARS);
  return limit;
}

/** Whether `to` is a move forward of `from` by at most two years. */
export function isAllowedAdvance(from: Date, to: Date): boolean {
  return to.getTime() > from.getTime() && to.getTime() <= advanceLimit(from).getTime();
}
