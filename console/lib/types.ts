/**
 * The shapes the console reads from the API (see the OpenAPI document at /openapi.json and
 * src/api/events/schemas.ts). Where the API has a schema, the type here is that schema's Static
 * type, imported as a type only (erased by the bundler: no server code reaches the page), so the
 * page and the routes cannot drift apart: the control status, the stream's heartbeat, /health, the
 * account, deleverage, the audit chain and the notifications. The decision report's rows below are the audit entry's
 * free-form body, which has no schema; only the fields the console shows are named.
 */
import type { Static } from 'typebox';
import type { AccountSchema, AuditVerificationSchema, DeleveragePreviewSchema } from '../../src/api/console/schemas.js';
import type { HeartbeatEventSchema } from '../../src/api/events/schemas.js';
import type { HealthSchema } from '../../src/api/health.js';
import type { DeleverageOrderSchema, NotificationSchema, StatusSchema } from '../../src/api/schemas.js';

export type ControlStatus = Static<typeof StatusSchema>;
export type Heartbeat = Static<typeof HeartbeatEventSchema>;
export type Health = Static<typeof HealthSchema>;
export type Account = Static<typeof AccountSchema>;
export type DeleverageOrder = Static<typeof DeleverageOrderSchema>;
export type DeleveragePreview = Static<typeof DeleveragePreviewSchema>;
export type AuditVerification = Static<typeof AuditVerificationSchema>;
export type NotificationRow = Static<typeof NotificationSchema>;

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
  /** What strategies threw in this cycle, "agent: SYMBOL: message" each (console/lib/agent-errors.ts). */
  agent_errors?: string[];
  selected?: { agent: string; symbol: string; direction: number; confidence: number }[];
  risk?: RiskRow[];
  proposals?: { order?: { clientOrderId?: string; symbol?: string; side?: string } | null }[];
  submissions?: {
    clientOrderId?: string;
    status?: string;
    venueStatus?: string;
    code?: string;
    message?: string;
    filledQty?: number;
    avgFillPrice?: number | null;
  }[];
  account?: { nav: number; peak_nav: number } | null;
}

export interface DecisionEntry {
  seq: number;
  at: string;
  symbol: string | null;
  hash: string;
  decision: DecisionBody;
}
