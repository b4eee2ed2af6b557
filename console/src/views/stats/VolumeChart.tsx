import type { DayTotals } from './types.ts';

// Volume per day as grouped bars drawn in SVG (no chart library: four series of rectangles need
// none, and the console's bundle stays as it was). Each bar names its number in a tooltip; the
// same numbers are in the table below the chart for screen readers and copying.

const SERIES = [
  { key: 'sent', label: 'Sent', className: 'bar-sent' },
  { key: 'delivered', label: 'Delivered', className: 'bar-delivered' },
  { key: 'engaged', label: 'Opened or read', className: 'bar-engaged' },
  { key: 'clicked', label: 'Clicked', className: 'bar-clicked' },
] as const;
type SeriesKey = (typeof SERIES)[number]['key'];

const WIDTH = 900;
const HEIGHT = 220;
const AXIS = 28;
const TOP = 12;

/** The opened or read messages of a day (a message may be both; the larger is shown). */
export const engagedOf = (day: DayTotals): number => Math.max(day.opened, day.read);

/** A round, even number at least `max`, for the axis's top (its half is a whole number too). */
function niceTop(max: number): number {
  if (max <= 4) return 4;
  const step = 10 ** Math.floor(Math.log10(max));
  const top = Math.ceil(max / step) * step;
  return top % 2 === 0 ? top : top + step;
}

export function VolumeChart({ days }: { days: DayTotals[] }) {
  const values = (day: DayTotals): Record<SeriesKey, number> => ({
    sent: day.sent,
    delivered: day.delivered,
    engaged: engagedOf(day),
    clicked: day.clicked,
  });
  const top = niceTop(Math.max(0, ...days.flatMap((d) => Object.values(values(d)))));
  const plot = HEIGHT - AXIS - TOP;
  const slot = (WIDTH - AXIS) / Math.max(1, days.length);
  const bar = Math.max(1, (slot * 0.8) / SERIES.length);
  const y = (n: number) => TOP + plot - (n / top) * plot;
  const total = (key: 'sent' | 'clicked') => days.reduce((sum, d) => sum + d[key], 0);
  const range = `${days[0]?.date ?? ''} to ${days.at(-1)?.date ?? ''}`;
  return (
    <figure className="volume-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`Messages per day from ${range}: ${total('sent')} sent, ${total('clicked')} clicked`}
      >
        {[0, 0.5, 1].map((f) => (
          <g key={f} className="grid">
            <line x1={AXIS} x2={WIDTH} y1={y(top * f)} y2={y(top * f)} />
            <text x={AXIS - 4} y={y(top * f) + 4} textAnchor="end">
              {Math.round(top * f)}
            </text>
          </g>
        ))}
        {days.map((day, i) => {
          const v = values(day);
          return (
            <g key={day.date} data-date={day.date}>
              {SERIES.map((s, j) => {
                const n = v[s.key];
                return (
                  <rect
                    key={s.key}
                    className={s.className}
                    data-series={s.key}
                    data-value={n}
                    x={AXIS + i * slot + slot * 0.1 + j * bar}
                    y={y(n)}
                    width={bar}
                    height={TOP + plot - y(n)}
                  >
                    <title>{`${day.date}: ${n} ${s.label.toLowerCase()}`}</title>
                  </rect>
                );
              })}
              {i % Math.ceil(days.length / 10) === 0 ? (
                <text className="day" x={AXIS + i * slot + slot / 2} y={HEIGHT - 8} textAnchor="middle">
                  {day.date.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption>
        {SERIES.map((s) => (
          <span key={s.key} className="legend">
            <svg width="12" height="12" aria-hidden="true">
              <rect className={s.className} width="12" height="12" />
            </svg>{' '}
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
