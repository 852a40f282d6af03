/**
 * The one registry of the documents the processes share in the key-value store: each key's schema
 * (TypeBox, compiled once here) and version. Every document is stored as its body plus `v: <version>`
 * in the same object (not an envelope), so a previous release's reader, which ignores fields it does
 * not know, still reads a new document during a rolling restart.
 *
 * Decoding is strict: a document whose `v` is not its key's version, or whose body is not the
 * schema's shape, is a DocumentError — a fault, never data. A document with no `v` at all was written
 * by the release before versions; it is read as version 1 when (and only when) it validates as
 * version 1, since that release wrote exactly these shapes and a rolling restart replaces it within
 * one heartbeat. A future version 2 must say here how a version 1 document is read, or refuse it.
 */
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import {
  API_HEARTBEAT_KEY,
  HEARTBEAT_KEY,
  KILL_PENDING_KEY,
  LIVE_INCOME_KEY,
  LIVE_PEAKS_KEY,
  MACHINES_KEY,
  NOTIFIER_STATUS_KEY,
  OWNERS_KEY,
  PORTFOLIO_KEY,
  PROTECTION_KEY,
  REPLAY_CURSOR_KEY,
  RISK_STATE_KEY,
  TRADING_METRICS_KEY,
} from '../runtime-documents.js';
import { ApiHeartbeatSchema } from './api-heartbeat.js';
import { DocumentError } from './document-error.js';
import { KillPendingSchema } from './kill-pending.js';
import { LiveIncomeSchema } from './live-income.js';
import { LivePeaksSchema } from './live-peaks.js';
import { MachinesDocumentSchema } from './machines.js';
import { NotifierStatusSchema } from './notifier-status.js';
import { OwnersSchema } from './owners.js';
import { PortfolioSchema } from './portfolio.js';
import { ProtectionStateSchema } from './protection.js';
import { ReplayCursorSchema } from './replay-cursor.js';
import { RiskStateSchema } from './risk-state.js';
import { TradingHeartbeatSchema } from './trading-heartbeat.js';
import { TradingMetricsSchema } from './trading-metrics.js';

/** The field that carries a stored document's version. */
export const VERSION_FIELD = 'v';

function entry<S extends TSchema>(version: number, schema: S) {
  return { version, schema, validator: Compile(schema) };
}

export const DOCUMENTS = {
  [HEARTBEAT_KEY]: entry(1, TradingHeartbeatSchema),
  [API_HEARTBEAT_KEY]: entry(1, ApiHeartbeatSchema),
  [PORTFOLIO_KEY]: entry(1, PortfolioSchema),
  [TRADING_METRICS_KEY]: entry(1, TradingMetricsSchema),
  [MACHINES_KEY]: entry(1, MachinesDocumentSchema),
  [REPLAY_CURSOR_KEY]: entry(1, ReplayCursorSchema),
  [KILL_PENDING_KEY]: entry(1, KillPendingSchema),
  [PROTECTION_KEY]: entry(1, ProtectionStateSchema),
  [OWNERS_KEY]: entry(1, OwnersSchema),
  [RISK_STATE_KEY]: entry(1, RiskStateSchema),
  [LIVE_PEAKS_KEY]: entry(1, LivePeaksSchema),
  [LIVE_INCOME_KEY]: entry(1, LiveIncomeSchema),
  [NOTIFIER_STATUS_KEY]: entry(1, NotifierStatusSchema),
} as const;

export type DocumentKey = keyof typeof DOCUMENTS;
/** The body of the document stored under `K` (what its writer writes and its reader returns). */
export type DocumentOf<K extends DocumentKey> = Static<(typeof DOCUMENTS)[K]['schema']>;

/** Errors shown per fault: enough to find the field, bounded so a huge document cannot flood a log. */
const MAX_ERRORS_SHOWN = 3;

function describeErrors(key: DocumentKey, value: unknown): string {
  const errors = DOCUMENTS[key].validator.Errors(value).slice(0, MAX_ERRORS_SHOWN);
  return errors.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ') || 'not the schema';
}

/**
 * The body of a stored document, null when absent; DocumentError when it is malformed or of another
 * version. `raw` is what the store returned.
 */
export function decodeDocument<K extends DocumentKey>(key: K, raw: unknown): DocumentOf<K> | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new DocumentError(key, 'malformed', `not a JSON object (${Array.isArray(raw) ? 'array' : typeof raw})`);
  }
  const { [VERSION_FIELD]: version, ...body } = raw as Record<string, unknown>;
  const expected = DOCUMENTS[key].version;
  // No version: written by the release before versions, read as version 1 if it is one (see above).
  if (version !== undefined && version !== expected) {
    throw new DocumentError(
      key,
      'unknown_version',
      `version ${JSON.stringify(version)} is not the ${expected} this release reads (written by another release?)`,
    );
  }
  if (!DOCUMENTS[key].validator.Check(body)) {
    throw new DocumentError(key, 'malformed', `not a version ${expected} document: ${describeErrors(key, body)}`);
  }
  return body as DocumentOf<K>;
}

/**
 * What to store for `body`: the body with its version. A body its own reader would refuse is a bug
 * in the writer, refused here (DocumentError) before anything reaches the store.
 */
export function encodeDocument<K extends DocumentKey>(key: K, body: DocumentOf<K>): Record<string, unknown> {
  if (!DOCUMENTS[key].validator.Check(body)) {
    throw new DocumentError(key, 'malformed', `refused to write: ${describeErrors(key, body)}`);
  }
  return { ...(body as Record<string, unknown>), [VERSION_FIELD]: DOCUMENTS[key].version };
}
