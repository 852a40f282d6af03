/** The trading process's metrics (TRADING_METRICS_KEY): its Prometheus text, merged into GET /metrics. */
import { Type } from 'typebox';

export const TradingMetricsSchema = Type.Object({
  ts: Type.Number({ minimum: 0 }),
  /** Prometheus text exposition of the trading process's registry. */
  text: Type.String(),
});
