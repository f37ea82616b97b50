import { ApiProperty } from '@nestjs/swagger';
import { isValidDay } from './dto/report.dto';

/** One row of the settlement report: a UTC day and a bank app. */
export class SettlementRowJson {
  @ApiProperty({ format: 'date', description: 'UTC day (YYYY-MM-DD)' }) date!: string;
  @ApiProperty({ description: 'The bank app (payment method type)' }) paymentMethod!: string;
  @ApiProperty({ type: 'integer', description: 'Completed payments' }) payments!: number;
  @ApiProperty({ type: 'integer', description: 'Whole MRU paid' }) gross!: number;
  @ApiProperty({ type: 'integer', description: "Khoums's fees, whole MRU" }) fees!: number;
  @ApiProperty({ type: 'integer', description: 'Whole MRU refunded (failed refunds excluded)' })
  refunds!: number;
  @ApiProperty({ type: 'integer', description: 'gross - fees - refunds' }) net!: number;
}

export const SETTLEMENT_COLUMNS = [
  'date',
  'paymentMethod',
  'payments',
  'gross',
  'fees',
  'refunds',
  'net',
] as const;

/** The rows as CSV: a header line, then one line per row (no field needs quoting: dates, names, integers). */
export function settlementCsv(rows: SettlementRowJson[]): string {
  const lines = [SETTLEMENT_COLUMNS.join(',')];
  for (const r of rows) lines.push(SETTLEMENT_COLUMNS.map((c) => String(r[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** The days [from, to] (inclusive, UTC) as [start, end): null when not a range of 1 to 366 days. */
export function reportRange(from: string, to: string): { start: Date; end: Date } | null {
  if (!isValidDay(from) || !isValidDay(to)) return null;
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000);
  const days = (end.getTime() - start.getTime()) / 86_400_000;
  return days >= 1 && days <= 366 ? { start, end } : null;
}
