import { ApiProperty } from '@nestjs/swagger';

export const PAYOUT_INTERVALS = ['daily', 'weekly', 'manual'] as const;
export type PayoutInterval = (typeof PAYOUT_INTERVALS)[number];

/** In the order of JavaScript's getUTCDay() (0: Sunday). */
export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface PayoutSchedule {
  environmentId: string;
  interval: PayoutInterval;
  weeklyDay: Weekday | null;
  minimumAmount: number;
  updatedAt: Date;
}

/** An environment's payout schedule, as the API shows it. */
export class PayoutScheduleJson {
  @ApiProperty({ enum: PAYOUT_INTERVALS }) interval!: PayoutInterval;
  @ApiProperty({
    enum: WEEKDAYS,
    nullable: true,
    description: 'The day of a weekly schedule; null otherwise',
  })
  weeklyDay!: Weekday | null;
  @ApiProperty({ type: 'integer', description: 'The least balance, in whole MRU, the schedule pays out' })
  minimumAmount!: number;
  @ApiProperty({ type: 'integer', description: 'The hour (UTC) from which a due day is paid' })
  hourUtc!: number;
  @ApiProperty({ format: 'uuid' }) environmentId!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export function toPayoutScheduleJson(s: PayoutSchedule, hourUtc: number): PayoutScheduleJson {
  return {
    interval: s.interval,
    weeklyDay: s.weeklyDay,
    minimumAmount: s.minimumAmount,
    hourUtc,
    environmentId: s.environmentId,
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** The UTC day of `now` (YYYY-MM-DD) and its weekday. */
export function utcDayOf(now: Date): { day: string; weekday: Weekday } {
  return { day: now.toISOString().slice(0, 10), weekday: WEEKDAYS[now.getUTCDay()] };
}
