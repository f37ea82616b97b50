import { barChart } from './chart';

const days = (amounts: number[]) =>
  amounts.map((amount, i) => ({ day: `2025-11-${String(i + 1).padStart(2, '0')}`, amount, title: `d${i}` }));

describe('the overview bar chart', () => {
  it('scales the bars to the best day, on one baseline, in order', () => {
    const chart = barChart(days([100, 50, 0]), String, (d) => d);
    const [best, half, none] = chart.bars;
    expect(best.y + best.height).toBeCloseTo(chart.baseline, 0);
    expect(half.height).toBeCloseTo(best.height / 2, 0);
    expect(none.height).toBe(0);
    expect(best.x).toBeLessThan(half.x);
    expect(chart.guides.map((g) => g.label)).toEqual(['100', '50', '0']);
  });

  it('never hides a day with payments, however small', () => {
    const chart = barChart(days([1_000_000, 1]), String, (d) => d);
    expect(chart.bars[1].height).toBeGreaterThanOrEqual(2);
  });

  it('draws only the zero line when nothing was paid', () => {
    const chart = barChart(days([0, 0, 0]), String, (d) => d);
    expect(chart.guides.map((g) => g.label)).toEqual(['0']);
    expect(chart.bars.every((b) => b.height === 0)).toBe(true);
  });

  it('labels the first, middle and last days, the outer ones aligned inwards', () => {
    const chart = barChart(days(Array.from({ length: 30 }, () => 1)), String, (d) => d.slice(8));
    expect(chart.ticks.map((t) => [t.label, t.anchor])).toEqual([
      ['01', 'start'],
      ['15', 'middle'],
      ['30', 'end'],
    ]);
    for (const bar of chart.bars) expect(bar.x + bar.width).toBeLessThanOrEqual(chart.width);
  });

  it('labels each guide just above its line from the plot’s left edge, with room above the top one', () => {
    const chart = barChart(
      days([9_876_543, 1]),
      (n) => `${n} MRU`,
      (d) => d,
    );
    expect(chart.labelX).toBe(chart.left);
    for (const guide of chart.guides) expect(guide.labelY).toBeLessThan(guide.y);
    // The top label's line of text (up to 20 units tall on a phone) stays inside the chart.
    expect(Math.min(...chart.guides.map((g) => g.labelY))).toBeGreaterThanOrEqual(20);
  });
});
