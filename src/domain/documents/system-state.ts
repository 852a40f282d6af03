/**
 * The system state as a schema, for the documents that carry it (the trading heartbeat). Checked
 * against the domain's own SystemState so the two cannot drift apart.
 */
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { SystemState } from '../control.js';
import type { Same } from './same.js';

export const SystemStateSchema = Type.Union([Type.Literal('running'), Type.Literal('paused'), Type.Literal('killed')]);

const _systemStateAgrees: Same<Static<typeof SystemStateSchema>, SystemState> = true;
