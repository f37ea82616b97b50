import { PredicateField } from '../../common/validation/fields';

/** `YYYY-MM-DD`, a day that exists. */
export function isValidDay(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

const DayField = (description: string) =>
  PredicateField('date (YYYY-MM-DD)', isValidDay, { type: 'string', format: 'date', description });

export class SettlementReportQuery {
  @DayField('First UTC day') from!: string;
  @DayField('Last UTC day (at most 366 days after from, counted inclusive)') to!: string;
}
