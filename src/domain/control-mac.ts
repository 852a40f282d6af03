/**
 * MACs over what crosses the store between our processes (issue 30, finding 10): the commands the
 * API queues for the trading process, and the control record both obey. The store sits between two
 * processes of ours, and anyone who can write it could otherwise queue a flatten or turn `paused`
 * into `running`; with a MAC under CONTROL_SECRET (which the API, the trading process and the
 * operator's `tcs` commands share, and the store never sees) a record nobody with the secret wrote
 * is told apart from ours. The HMAC style of src/domain/order-token.ts: `hmac:<hex>` =
 * HMAC-SHA256(secret, canonicalJson({...})), compared in constant time.
 *
 * Each MAC names what it covers (`kind`) so one kind's MAC is never valid as another's. The command
 * MAC covers the id (so a signed payload cannot be replayed under a new id), the type, the payload
 * version and the whole payload, the actor included. The control MAC covers every field of the
 * record: state and epoch command the trader; store_id and adopted_from decide which store it
 * trusts; reason and changed_at are what operators read.
 *
 * Only the fields listed are covered: a field added to a command or to the control record later
 * must be added here with `v` raised, or it could be altered without detection.
 */
import { createHmac } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import type { ControlRecord } from './control.js';
import { constantTimeEqual } from './order-token.js';

const MAC_VERSION = 1;
const MAC_PREFIX = 'hmac:';
const MAC_PATTERN = /^hmac:[0-9a-f]{64}$/;

/** What a command MAC covers: the command as queued, and its payload's schema version. */
export interface SignedCommandFields {
  id: string;
  type: string;
  version: number;
  payload: unknown;
}

export function commandMac(secret: string, command: SignedCommandFields): string {
  const { id, type, version, payload } = command;
  return mac(secret, { v: MAC_VERSION, kind: 'command', id, type, version, payload });
}

export function controlRecordMac(secret: string, record: ControlRecord): string {
  const { state, epoch, reason, changed_at, store_id, adopted_from } = record;
  return mac(secret, { v: MAC_VERSION, kind: 'control', state, epoch, reason, changed_at, store_id, adopted_from });
}

/**
 * Why `given` is not the MAC `expected` (computed here from the stored fields), or null when it is.
 * The reasons name CONTROL_SECRET, so an operator who sees one knows what the trader checked.
 */
export function macProblem(expected: string, given: unknown): string | null {
  if (given === undefined || given === null || given === '') {
    return 'it carries no MAC: it was not written by a process holding CONTROL_SECRET (a writer of the store, or a release before MACs)';
  }
  if (typeof given !== 'string' || !MAC_PATTERN.test(given))
    return 'its MAC is malformed (not "hmac:" and 64 hex digits)';
  const ok = constantTimeEqual(
    Buffer.from(expected.slice(MAC_PREFIX.length), 'hex'),
    Buffer.from(given.slice(MAC_PREFIX.length), 'hex'),
  );
  return ok ? null : 'its MAC does not match its contents: it was altered, or written under another CONTROL_SECRET';
}

function mac(secret: string, covered: Record<string, unknown>): string {
  if (secret.length === 0) throw new RangeError('CONTROL_SECRET is empty');
  return MAC_PREFIX + createHmac('sha256', secret).update(canonicalJson(covered), 'utf8').digest('hex');
}
