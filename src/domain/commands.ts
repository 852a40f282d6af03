/**
 * Commands: work the API asks the trading process to carry out (cancel-all, the kill's cancels,
 * deleverage, flatten, the operator's drawdown reset), as records in the command queue. A discriminated union on `type`, each payload with
 * one TypeBox schema and a version: the queue adapters encode a command only when its payload is
 * its schema's (so no writer stores what the reader refuses) and decode each stored one against it
 * when read. A stored command that does not decode (not JSON, an unknown type, the wrong shape,
 * another version) comes back as a MalformedCommandRecord, which is never executed: the trading
 * process completes it as `rejected` with the reason (src/application/command-completion.ts).
 *
 * The version travels in the stored payload as `v` (as the shared documents carry theirs), so the
 * queue's tables and hashes keep their layout. A payload with no `v` was written by the release
 * before versions; it is read as version 1 when it validates as one (that release wrote exactly
 * these payloads), so commands queued across a rolling restart still run.
 *
 * The command's MAC (src/domain/control-mac.ts) travels in the stored payload too, as `mac`, beside
 * `v` and for the same reason: the queue adapters store and return it without knowing it. Signing
 * and checking it is the application's (src/application/authenticated-store.ts).
 */
import { Type } from 'typebox';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { CancelInstruction, DeleverageOrder } from './instructions.js';
import type { Same } from './documents/same.js';

const CancelInstructionSchema = Type.Object({
  tool: Type.Union([Type.Literal('cancel_all_orders'), Type.Literal('cancel_spot_all_orders')]),
  symbol: Type.String({ minLength: 1 }),
});
const _instructionAgrees: Same<Static<typeof CancelInstructionSchema>, CancelInstruction> = true;

const DeleverageOrderSchema = Type.Object({
  symbol: Type.String({ minLength: 1 }),
  side: Type.Union([Type.Literal('BUY'), Type.Literal('SELL')]),
  qty: Type.Number({ exclusiveMinimum: 0 }),
  type: Type.Literal('market'),
  reduce_only: Type.Literal(true),
});
const _orderAgrees: Same<Static<typeof DeleverageOrderSchema>, DeleverageOrder> = true;

/** The API key id (or `trading-process`) that asked for it. */
const Actor = Type.String();

const PAYLOADS = {
  cancel_all: { version: 1, schema: Type.Object({ instructions: Type.Array(CancelInstructionSchema), actor: Actor }) },
  kill_cancels: {
    version: 1,
    schema: Type.Object({ instructions: Type.Array(CancelInstructionSchema), reason: Type.String(), actor: Actor }),
  },
  deleverage: {
    version: 1,
    schema: Type.Object({
      symbol: Type.String({ minLength: 1 }),
      /** Fraction of the position to close, in (0, 1]. */
      reduce_pct: Type.Number({ exclusiveMinimum: 0, maximum: 1 }),
      /** The order the API prepared from its snapshot; the trading process re-caps it to the live position. */
      prepared: DeleverageOrderSchema,
      actor: Actor,
    }),
  },
  flatten: {
    version: 1,
    schema: Type.Object({
      /** The symbols whose positions to close, or null for every position this process holds. */
      symbols: Type.Union([Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }), Type.Null()]),
      reason: Type.String(),
      actor: Actor,
    }),
  },
  /** The operator's reset of the drawdown reference (API or `tcs risk reset`): peak NAV := NAV. */
  risk_reset: {
    version: 1,
    schema: Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }), actor: Actor }),
  },
} as const satisfies Record<string, { version: number; schema: TSchema }>;

export type CommandType = keyof typeof PAYLOADS;
export type CommandPayload<T extends CommandType> = Static<(typeof PAYLOADS)[T]['schema']>;

const VALIDATORS = Object.fromEntries(
  Object.entries(PAYLOADS).map(([type, { schema }]) => [type, Compile(schema)]),
) as { [T in CommandType]: ReturnType<typeof Compile<(typeof PAYLOADS)[T]['schema']>> };

interface CommandOf<T extends CommandType> {
  id: string;
  type: T;
  payload: CommandPayload<T>;
  /** ISO 8601 UTC. */
  enqueued_at: string;
  /** The command's MAC under CONTROL_SECRET, as stored (absent when it was stored without one). */
  mac?: string;
}

export type CancelAllCommand = CommandOf<'cancel_all'>;
export type KillCancelsCommand = CommandOf<'kill_cancels'>;
export type DeleverageCommand = CommandOf<'deleverage'>;
export type FlattenCommand = CommandOf<'flatten'>;
export type RiskResetCommand = CommandOf<'risk_reset'>;
export type Command = CancelAllCommand | KillCancelsCommand | DeleverageCommand | FlattenCommand | RiskResetCommand;

export type CommandStatus = 'pending' | 'claimed' | 'done';

/** Where a stored command stands in the queue. */
export interface CommandState {
  status: CommandStatus;
  /** How many times it was claimed. */
  attempts: number;
  result: Record<string, unknown> | null;
  completed_at: string | null;
}

/** A stored command that decoded: one of the commands this release runs. */
export type CommandRecord = Command & CommandState;

/**
 * The kill's cancels: claimed before every other open command, whatever waits (a kill is never queued
 * behind work), and never refused by the queue's bound.
 */
export const KILL_CANCELS = 'kill_cancels' satisfies CommandType;

/** The id of the kill's cancel command: one per kill, so every caller queues the same one. */
export const killCancelsId = (epoch: number): string => `kill-cancels-epoch-${epoch}`;

/** The id of a kill's flatten (kill-switch with flatten, the circuit breaker): one per kill, like its cancels. */
export const killFlattenId = (epoch: number): string => `kill-flatten-epoch-${epoch}`;

/** The commands the order manager carries out as cancels (deleverage and flatten go through risk instead). */
export type CancelCommandRecord = Extract<CommandRecord, { type: 'cancel_all' | 'kill_cancels' }>;

/** The operator's drawdown reset as the trading process receives it. */
export type RiskResetRecord = Extract<CommandRecord, { type: 'risk_reset' }>;

/** A stored command that did not decode: never executed, completed as `rejected` with `problem`. */
export interface MalformedCommandRecord extends CommandState {
  id: string;
  /** As stored (it may be no type this release knows). */
  type: string;
  enqueued_at: string;
  /** Why it is not a command, for the log, the audit trail and its result. */
  problem: string;
}

export type StoredCommand = CommandRecord | MalformedCommandRecord;

export function isMalformed(command: StoredCommand): command is MalformedCommandRecord {
  return 'problem' in command;
}

const isCommandType = (type: string): type is CommandType => Object.hasOwn(PAYLOADS, type);

/** Errors shown per malformed payload: enough to find the field, bounded for the log. */
const MAX_ERRORS_SHOWN = 3;

/**
 * The payload text to store for `command`, with its version. A payload its reader would refuse is a
 * bug in the caller: refused here (TypeError) before anything reaches the queue.
 */
export function encodeCommandPayload(command: Command): string {
  // The type too: a caller that cast its way past the union would otherwise store a command nobody runs.
  if (!isCommandType(command.type)) {
    throw new TypeError(`refused to queue ${command.id}: unknown command type ${JSON.stringify(command.type)}`);
  }
  const validator = VALIDATORS[command.type];
  if (!validator.Check(command.payload)) {
    const detail = validator
      .Errors(command.payload)
      .slice(0, MAX_ERRORS_SHOWN)
      .map((e) => `${e.instancePath || '/'} ${e.message}`)
      .join('; ');
    throw new TypeError(`refused to queue ${command.type} ${command.id}: ${detail}`);
  }
  const mac = command.mac === undefined ? {} : { mac: command.mac };
  return JSON.stringify({ ...command.payload, v: PAYLOADS[command.type].version, ...mac });
}

/** The version of `type`'s payload this release writes and runs (what a command's MAC covers). */
export function commandVersion(type: CommandType): number {
  return PAYLOADS[type].version;
}

/** A stored command as the queue holds it: the payload still as text. */
export interface StoredCommandFields extends CommandState {
  id: string;
  type: string;
  payload: string;
  enqueued_at: string;
}

/** The stored command decoded against its type's schema and version, or malformed with the reason. */
export function decodeStoredCommand(stored: StoredCommandFields): StoredCommand {
  const { payload: text, ...rest } = stored;
  const malformed = (problem: string): MalformedCommandRecord => ({ ...rest, problem });
  const type = stored.type;
  if (!isCommandType(type)) return malformed(`unknown command type ${JSON.stringify(type)}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return malformed(`the ${type} payload is not JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return malformed(`the ${type} payload is not a JSON object`);
  }
  const { v, mac, ...payload } = parsed as Record<string, unknown>;
  const expected = PAYLOADS[type].version;
  if (v !== undefined && v !== expected) {
    return malformed(`the ${type} payload is version ${JSON.stringify(v)}, not the ${expected} this release runs`);
  }
  const validator = VALIDATORS[type];
  if (!validator.Check(payload)) {
    const detail = validator
      .Errors(payload)
      .slice(0, MAX_ERRORS_SHOWN)
      .map((e) => `${e.instancePath || '/'} ${e.message}`)
      .join('; ');
    return malformed(`the ${type} payload is not a version ${expected} ${type}: ${detail}`);
  }
  // A MAC that is not text is kept out: the application reads its absence as unauthenticated.
  return { ...rest, type, payload, ...(typeof mac === 'string' ? { mac } : {}) } as CommandRecord;
}
