/**
 * The shapes the console reads from the API (see the OpenAPI document at /openapi.json and
 * src/api/events/schemas.ts). Only the fields the console shows are named.
 */

export type SystemState = 'running' | 'paused' | 'killed';

export interface ControlStatus {
  state: SystemState;
  epoch: number;
  reason: string | null;
  changed_at: string;
}

export interface Heartbeat {
  cycle: number;
  epoch: number;
  state: SystemState;
  ts: string;
  last_cycle_at: string | null;
  halt: string | null;
  mode: string;
  stopped: boolean;
}

type ComponentStatus = 'ok' | 'stale' | 'unknown' | 'down';

export interface Health {
  status: 'ok' | 'degraded' | 'down';
  state: SystemState | null;
  checked_at: string;
  components: {
    store: { status: ComponentStatus; kind: string; latency_ms: number | null; reason?: string; error?: string };
    event_store: { status: ComponentStatus; entries: number | null };
    trading_process: {
      status: ComponentStatus;
      heartbeat_age_ms: number | null;
      last_cycle: number | null;
      mode: string | null;
    };
  };
}

export interface Position {
  symbol: string;
  kind: string;
  qty: number;
  entry_price: number;
  mark_price: number;
  notional: number;
  unrealized_pnl: number;
  realized_pnl: number;
}

export interface OpenOrder {
  client_order_id: string;
  symbol: string;
  side: string;
  type: string;
  qty: number;
  filled_qty: number;
  limit_price: number | null;
  reduce_only: boolean;
  status: string;
  created_at: string;
}

export interface Account {
  symbols: { symbol: string; kind: string; lot_size: number }[];
  published_at: string | null;
  nav: number | null;
  peak_nav: number | null;
  cash: number | null;
  realized_pnl: number | null;
  unrealized_pnl: number | null;
  drawdown: number | null;
  gross_exposure: number | null;
  leverage: number | null;
  margin_used: number | null;
  positions: Position[];
  open_orders: OpenOrder[];
}

export interface DeleverageOrder {
  symbol: string;
  side: 'BUY' | 'SELL';
  qty: number;
  type: 'market';
  reduce_only: true;
}

export interface DeleveragePreview {
  symbol: string;
  reduce_pct: number;
  position_qty: number;
  order: DeleverageOrder | null;
  message: string;
}

export interface AuditVerification {
  ok: boolean;
  count: number;
  head: string | null;
  first_bad: { seq: number; reason: string } | null;
  checked_at: string;
  duration_ms: number;
}

export interface SignalRow {
  agent: string;
  symbol: string;
  direction: number;
  confidence: number;
  weight?: number;
  score?: number;
  selected?: boolean;
  reason?: string;
  rationale?: string;
}

export interface GuardRow {
  guard: string;
  passed: boolean;
  code: string | null;
  value: number | null;
  limit: number | null;
}

export interface RiskRow {
  client_order_id: string;
  symbol: string;
  approved: boolean;
  reduce_only: boolean;
  guards: GuardRow[];
}

export interface DecisionBody {
  cycle?: number;
  epoch?: number;
  outcome?: string;
  error?: string | null;
  duration_ms?: number;
  signals?: SignalRow[];
  selected?: { agent: string; symbol: string; direction: number; confidence: number }[];
  risk?: RiskRow[];
  submissions?: { clientOrderId?: string; status?: string; venueStatus?: string; code?: string; message?: string }[];
  account?: { nav: number; peak_nav: number } | null;
}

export interface DecisionEntry {
  seq: number;
  at: string;
  symbol: string | null;
  hash: string;
  decision: DecisionBody;
}
