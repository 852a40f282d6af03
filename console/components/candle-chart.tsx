/**
 * A candle chart per symbol with our fills on it (issue 35), with lightweight-charts bundled with the
 * page: the candles the decision log recorded and the fills from the same log as arrows at their
 * price, each on the bar its cycle decided on (console/lib/candles.ts). The symbol is chosen in a
 * list; the one with our latest fill first. The bars' times are the feed's (in paper mode on the
 * synthetic market, its own clock).
 */
import { CandlestickSeries, createChart, createSeriesMarkers } from 'lightweight-charts';
import type { IChartApi, ISeriesApi, ISeriesMarkersPluginApi, Time, UTCTimestamp } from 'lightweight-charts';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { candleSeries, fillMarkers } from '../lib/candles.js';
import type { CandleBook } from '../lib/candles.js';
import type { FillRow } from '../lib/fills.js';

interface Chart {
  api: IChartApi;
  candles: ISeriesApi<'Candlestick'>;
  markers: ISeriesMarkersPluginApi<Time>;
}

export function CandleChart({ candles, fills }: { candles: CandleBook; fills: FillRow[] }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart | null>(null);
  const symbols = useMemo(() => [...candles.bars.keys()].sort(), [candles]);
  const [picked, setPicked] = useState<string | null>(null);
  // Until the operator picks one: the symbol of our latest fill that has candles, else the first.
  const symbol =
    picked ?? fills.find((f) => f.symbol !== null && candles.bars.has(f.symbol))?.symbol ?? symbols[0] ?? null;
  const series = useMemo(() => (symbol ? candleSeries(candles, symbol) : []), [candles, symbol]);
  const markers = useMemo(() => (symbol ? fillMarkers(fills, symbol, candles) : []), [fills, symbol, candles]);

  useEffect(() => {
    if (!box.current) return;
    const api = createChart(box.current, {
      autoSize: true,
      layout: { attributionLogo: false, background: { color: '#ffffff' }, textColor: '#1f2933' },
      timeScale: { timeVisible: true, secondsVisible: false },
    });
    const candleSeriesApi = api.addSeries(CandlestickSeries, {
      upColor: '#0f7b3f',
      downColor: '#b91c1c',
      borderVisible: false,
      wickUpColor: '#0f7b3f',
      wickDownColor: '#b91c1c',
    });
    // Room above and below the candles for the fills' labels at the edge prices.
    candleSeriesApi.priceScale().applyOptions({ scaleMargins: { top: 0.12, bottom: 0.12 } });
    chart.current = { api, candles: candleSeriesApi, markers: createSeriesMarkers(candleSeriesApi, []) };
    return () => {
      api.remove();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    c.candles.setData(series.map((k) => ({ ...k, time: k.time as UTCTimestamp })));
    c.markers.setMarkers(markers.map((m) => ({ ...m, time: m.time as UTCTimestamp })));
    // Every candle, with a bar's room on the left so the first fill's label is not cut at the edge.
    if (series.length > 0) c.api.timeScale().setVisibleLogicalRange({ from: -1.5, to: series.length - 0.5 });
  }, [series, markers]);

  return (
    <section class="panel candles" aria-labelledby="candles-title">
      <h2 id="candles-title">Price and our fills</h2>
      <label class="inline">
        Symbol
        <select
          value={symbol ?? ''}
          onChange={(e) => setPicked(e.currentTarget.value)}
          disabled={symbols.length === 0}
          data-testid="candle-symbol"
        >
          {symbols.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <p class="note">
        One candle per bar the trading process closed, from the decision log; arrows are our fills at their price (up:
        buy, down: sell).
      </p>
      <div
        ref={box}
        class="chart-box"
        role="img"
        aria-label={`${symbol ?? 'No symbol'}: ${series.length} candles, ${markers.length} fill markers${
          markers.length ? `: ${markers.map((m) => m.text).join('; ')}` : ''
        }`}
        data-testid="candle-chart"
        data-symbol={symbol ?? ''}
        data-candles={series.length}
        data-markers={markers.length}
      />
    </section>
  );
}
