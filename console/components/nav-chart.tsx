/**
 * NAV (top pane) and drawdown (bottom pane) over time with lightweight-charts, bundled with the page
 * (no CDN). The TradingView logo link is turned off so the page links to no other host; the
 * attribution the licence asks for is in the page footer as text.
 */
import { AreaSeries, LineSeries, createChart } from 'lightweight-charts';
import type { IChartApi, ISeriesApi, UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'preact/hooks';
import type { NavPoint } from '../lib/chart-points.js';

export function NavChart({ points }: { points: NavPoint[] }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<{ api: IChartApi; nav: ISeriesApi<'Line'>; dd: ISeriesApi<'Area'> } | null>(null);

  useEffect(() => {
    if (!box.current) return;
    const api = createChart(box.current, {
      autoSize: true,
      layout: { attributionLogo: false, background: { color: '#ffffff' }, textColor: '#1f2933' },
      timeScale: { timeVisible: true, secondsVisible: true },
      localization: { priceFormatter: (v: number) => v.toFixed(2) },
    });
    const nav = api.addSeries(LineSeries, { color: '#1d4ed8', lineWidth: 2, title: 'NAV' });
    const dd = api.addSeries(
      AreaSeries,
      {
        lineColor: '#b91c1c',
        topColor: 'rgba(185,28,28,0.05)',
        bottomColor: 'rgba(185,28,28,0.35)',
        title: 'Drawdown %',
        invertFilledArea: true,
      },
      1,
    );
    chart.current = { api, nav, dd };
    return () => {
      api.remove();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    c.nav.setData(points.map((p) => ({ time: p.time as UTCTimestamp, value: p.nav })));
    c.dd.setData(points.map((p) => ({ time: p.time as UTCTimestamp, value: -p.drawdown * 100 })));
  }, [points]);

  return (
    <section class="panel chart" aria-labelledby="chart-title">
      <h2 id="chart-title">NAV and drawdown</h2>
      <div
        ref={box}
        class="chart-box"
        role="img"
        aria-label={`NAV and drawdown chart, ${points.length} points`}
        data-testid="nav-chart"
        data-points={points.length}
      />
    </section>
  );
}
