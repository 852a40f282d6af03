/**
 * The report page's own script (browser JavaScript, kept as text): it reads the embedded run data
 * and draws the equity (with the buy-and-hold benchmark), drawdown, exposure and per-symbol price
 * charts with lightweight-charts, fills marked on the prices, then the daily returns and the rolling
 * 30-day Sharpe and volatility. A marker stands for a bucket of fills
 * (tracker: FillMarkers) and snaps to the nearest kept price point, because the price series are
 * downsampled and a marker needs a time the series has. Times are epoch seconds, strictly rising.
 */
export const REPORT_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('run-data').textContent);
  var LWC = window.LightweightCharts;
  var base = {
    autoSize: true,
    layout: { background: { type: 'solid', color: '#ffffff' }, textColor: '#1f2933', fontFamily: 'system-ui, sans-serif' },
    grid: { vertLines: { color: '#eef1f4' }, horzLines: { color: '#eef1f4' } },
    rightPriceScale: { borderColor: '#d0d7de' },
    // minBarSpacing: fitContent never squeezes bars below it, so at the default (0.5 px) a series of
    // more than ~2 points per pixel showed only its end (issue 34: two equity series of 3,057
    // distinct times). A tiny floor lets every chart open on the whole run.
    timeScale: { borderColor: '#d0d7de', timeVisible: true, secondsVisible: false, minBarSpacing: 0.001 },
    // Drag to pan and drag the axis to zoom (double-click the axis resets); the mouse wheel stays
    // the page's, so scrolling past a chart never zooms it.
    handleScroll: { mouseWheel: false, pressedMouseMove: true, horzTouchDrag: true, vertTouchDrag: false },
    handleScale: { mouseWheel: false, pinch: true, axisPressedMouseMove: { time: true, price: false }, axisDoubleClickReset: true }
  };
  // Percent with two decimals, as the metrics table prints it. Not the built-in 'percent' format:
  // it takes its precision as a price scale (precision 2 = steps of 1/2), so −7.47 showed as −7.1%.
  function percent(v) {
    var text = Math.abs(v).toFixed(2);
    return (v < 0 && Number(text) !== 0 ? '−' : '') + text + ' %';
  }
  function toSeconds(points) {
    var out = [];
    for (var i = 0; i < points.length; i++) {
      var t = Math.floor(points[i].t / 1000);
      if (out.length === 0 || t > out[out.length - 1].time) out.push({ time: t, value: points[i].v });
    }
    return out;
  }
  var charts = {};
  function chart(id, seriesType, options, points) {
    var el = document.getElementById(id);
    var c = LWC.createChart(el, base);
    var s = c.addSeries(seriesType, options);
    var rows = toSeconds(points);
    s.setData(rows);
    c.timeScale().fitContent();
    charts[id] = { chart: c, rows: rows };
    return { chart: c, series: s, rows: rows };
  }
  var equity = chart('equity-chart', LWC.LineSeries, { color: '#2563eb', lineWidth: 2, title: 'NAV' }, data.series.equity);
  var held = equity.chart.addSeries(LWC.LineSeries, { color: '#9ca3af', lineWidth: 1, lineStyle: 2, title: 'Buy and hold' });
  held.setData(toSeconds(data.series.benchmark));
  equity.chart.timeScale().fitContent();
  var drawdown = chart('drawdown-chart', LWC.AreaSeries, {
    lineColor: '#dc2626', topColor: 'rgba(220,38,38,0.05)', bottomColor: 'rgba(220,38,38,0.35)', lineWidth: 1,
    invertFilledArea: true, title: 'Drawdown', priceFormat: { type: 'custom', formatter: percent, minMove: 0.01 }
  }, data.series.drawdown.map(function (p) { return { t: p.t, v: p.v * 100 }; }));
  chart('exposure-chart', LWC.AreaSeries, {
    lineColor: '#7c3aed', topColor: 'rgba(124,58,237,0.3)', bottomColor: 'rgba(124,58,237,0.02)', lineWidth: 1,
    title: 'Gross / NAV', priceFormat: { type: 'price', precision: 2, minMove: 0.01 }
  }, data.series.exposure);
  // Daily returns as bars, green up and red down; rolling Sharpe and volatility as lines.
  var daily = chart('daily-chart', LWC.HistogramSeries, { title: 'Daily return', priceFormat: { type: 'custom', formatter: percent, minMove: 0.01 } },
    data.series.dailyReturns.map(function (p) { return { t: p.t, v: p.v * 100 }; }));
  daily.series.setData(daily.rows.map(function (r) {
    return { time: r.time, value: r.value, color: r.value >= 0 ? '#16a34a' : '#dc2626' };
  }));
  daily.chart.timeScale().fitContent();
  if (data.series.rollingSharpe.length > 0) {
    chart('rolling-sharpe-chart', LWC.LineSeries, { color: '#2563eb', lineWidth: 1, title: 'Sharpe, 30 d' }, data.series.rollingSharpe);
  }
  if (data.series.rollingVolatility.length > 0) {
    chart('rolling-volatility-chart', LWC.LineSeries, { color: '#7c3aed', lineWidth: 1, title: 'Volatility, 30 d',
      priceFormat: { type: 'custom', formatter: percent, minMove: 0.01 } },
      data.series.rollingVolatility.map(function (p) { return { t: p.t, v: p.v * 100 }; }));
  }
  var markersDrawn = {};
  Object.keys(data.series.prices).forEach(function (symbol, i) {
    var made = chart('price-chart-' + i, LWC.LineSeries, { color: '#374151', lineWidth: 1, title: symbol }, data.series.prices[symbol]);
    var times = made.rows.map(function (r) { return r.time; });
    if (times.length === 0) return;
    var markers = (data.series.fills[symbol] || []).map(function (f) {
      var t = Math.floor(f.t / 1000), lo = 0, hi = times.length - 1;
      while (lo < hi) { var mid = (lo + hi) >> 1; if (times[mid] < t) lo = mid + 1; else hi = mid; }
      var buy = f.side === 'BUY', forced = f.forced;
      return {
        time: times[lo], position: buy ? 'belowBar' : 'aboveBar', shape: forced ? 'circle' : buy ? 'arrowUp' : 'arrowDown',
        color: forced ? '#d97706' : buy ? '#16a34a' : '#dc2626', size: 0.6, text: f.count > 1 ? String(f.count) : ''
      };
    }).sort(function (a, b) { return a.time - b.time; });
    LWC.createSeriesMarkers(made.series, markers);
    markersDrawn[symbol] = markers.length;
  });
  // For inspection from the console (and the browser test): the series as drawn.
  window.tcsReport = { drawdown: drawdown.series, equity: equity.chart, markers: markersDrawn, charts: charts };
  document.body.setAttribute('data-charts', 'ready');
})();
`;
