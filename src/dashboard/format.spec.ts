import { fill, formatCount, formatDay, formatRate, formatTime, utcDay } from './format';

describe('dashboard formats', () => {
  it('writes times in UTC (Mauritania is on GMT) in the page language', () => {
    const at = new Date('2025-11-23T23:30:05Z');
    expect(formatTime(at, 'en')).toBe('23 Nov 2025, 23:30:05');
    expect(formatTime(at, 'fr')).toBe('23 nov. 2025, 23:30:05');
    expect(formatTime(null, 'en')).toBe('');
    // Arabic as in Mauritania, as the hosted checkout writes it: its digits and months, on 24 hours.
    expect(formatTime(at, 'ar')).toBe('٢٣ نوفمبر ٢٠٢٥، ٢٣:٣٠:٠٥');
    expect(formatDay('2025-09-03', 'ar')).toBe('٣ شتمبر');
  });

  it('writes days and rates', () => {
    expect(formatDay('2025-11-03', 'en')).toBe('3 Nov');
    expect(formatRate(2, 3, 'en')).toBe('67%');
    expect(formatRate(2, 3, 'fr').replace(/\s/g, ' ')).toBe('67 %');
    expect(formatRate(0, 0, 'en')).toBe('—');
    // Counts in the same digits as the amounts beside them.
    expect(formatCount(1234, 'en')).toBe('1,234');
    expect(formatCount(1234, 'ar')).toBe('١٬٢٣٤');
    expect(formatCount(5, 'fr')).toBe('5');
  });

  it('fills named values and leaves unknown ones', () => {
    expect(fill('{a} of {b} {c}', { a: 1, b: 'two' })).toBe('1 of two {c}');
    expect(utcDay(new Date('2025-11-23T23:59:59Z'))).toBe('2025-11-23');
  });
});
