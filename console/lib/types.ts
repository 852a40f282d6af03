/**
 * The shapes the console reads from the API (see the OpenAPI document at /openapi.json and
 * src/api/events/schemas.ts). Only the fields the console shows are named.
 */
import type { Static } from 'typebox';
import type { AccountSchema, AuditVerificationSchema, DeleveragePreviewSchema } from '../../src/api/console/schemas.js';
import type { DeleverageOrderSchema } from '../../src/api/schemas.js';

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

// The API's own response schemas, as types only (erased by the bundler: no server code reaches the
// page), so the page and the routes cannot drift apart.
export type Account = Static<typeof AccountSchema>;
export type DeleverageOrder = Static<typeof DeleverageOrderSchema>;
export type DeleveragePreview = Static<typeof DeleveragePreviewSchema>;
export type AuditVerification = Static<typeof AuditVerificationSchema>;

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
