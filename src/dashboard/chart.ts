/**
 * The overview's bar chart as geometry for a server-rendered SVG (views/dashboard/home.hbs): one
 * bar per day, heights scaled to the largest day. Pure, so its arithmetic is unit-tested; the view
 * only places the shapes, and Handlebars escapes every text.
 */
export interface ChartDay {
  day: string;
  amount: number;
  /** The bar's tooltip and accessible text. */
  title: string;
}

export interface ChartBar {
  x: number;
  y: number;
  width: number;
  height: number;
  title: string;
}

export interface BarChart {
  width: number;
  height: number;
  bars: ChartBar[];
  /**
   * Horizontal guides: top (the largest day), middle, bottom (zero), each labelled with its amount
   * just above the line, from the plot's left edge: however long the amount and however narrow the
   * screen, the label stays inside the chart (beside the plot, it was cut at 360 px).
   */
  guides: { y: number; labelY: number; label: string }[];
  /** Day labels under the first, middle and last bars (the outer ones aligned inwards). */
  ticks: { x: number; label: string; anchor: 'start' | 'middle' | 'end' }[];
  baseline: number;
  /** The plot's left and right edges, and where the amounts start. */
  left: number;
  right: number;
  labelX: number;
}

const WIDTH = 600;
const HEIGHT = 220;
const LEFT = 4;
const RIGHT = 4;
/** Room above the top guide for its label, at the largest font the chart's text gets (20 units on a phone). */
const TOP = 30;
const BOTTOM = 28;
/** A guide's label sits this far above its line. */
const LABEL_GAP = 6;

const round = (n: number) => Math.round(n * 10) / 10;

export function barChart(
  days: ChartDay[],
  formatAmount: (amount: number) => string,
  formatDay: (day: string) => string,
): BarChart {
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const baseline = TOP + plotHeight;
  const max = Math.max(0, ...days.map((d) => d.amount));
  const slot = days.length > 0 ? plotWidth / days.length : plotWidth;
  const bars = days.map((d, i) => {
    // A day with payments is never invisible, however small next to the best day.
    const height = max === 0 || d.amount === 0 ? 0 : Math.max(2, (d.amount / max) * plotHeight);
    return {
      x: round(LEFT + i * slot + slot * 0.15),
      y: round(baseline - height),
      width: round(slot * 0.7),
      height: round(height),
      title: d.title,
    };
  });
  const last = days.length - 1;
  const tickAt = (i: number) =>
    i === 0
      ? { x: round(LEFT + slot * 0.15), label: formatDay(days[i].day), anchor: 'start' as const }
      : i === last
        ? { x: round(LEFT + i * slot + slot * 0.85), label: formatDay(days[i].day), anchor: 'end' as const }
        : { x: round(LEFT + i * slot + slot / 2), label: formatDay(days[i].day), anchor: 'middle' as const };
  const ticks = days.length === 0 ? [] : [...new Set([0, Math.floor(last / 2), last])].map(tickAt);
  return {
    width: WIDTH,
    height: HEIGHT,
    bars,
    // Nothing paid: only the zero line (three "0 MRU" would say nothing more).
    guides: (max === 0
      ? [{ y: baseline, label: formatAmount(0) }]
      : [
          { y: TOP, label: formatAmount(max) },
          { y: round(TOP + plotHeight / 2), label: formatAmount(Math.round(max / 2)) },
          { y: baseline, label: formatAmount(0) },
        ]
    ).map((guide) => ({ ...guide, labelY: guide.y - LABEL_GAP })),
    ticks,
    baseline,
    left: LEFT,
    right: WIDTH - RIGHT,
    labelX: LEFT,
  };
}
