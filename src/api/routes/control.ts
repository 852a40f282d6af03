/**
 * /control routes (spec section 4). Thin: validate, call the application's ControlPlane, answer its
 * result (failures mapped to HTTP in control-failures.ts). Control POSTs are rate limited per key
 * except the kill switch: the emergency button is never throttled.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { preValidationHookHandler } from 'fastify';
import type { ControlPlane } from '../../application/control-plane.js';
import { DEFAULT_REASONS } from '../../application/control-plane.js';
import {
  CancelAllResultSchema,
  DeleverageResultSchema,
  KillSwitchBody,
  KillSwitchResultSchema,
  ModeSchema,
  ReasonBody,
  StatusSchema,
  TransitionResultSchema,
  cancelAllBody,
  conflict,
  deleverageBody,
  protectedErrors,
  tooMany,
} from '../schemas.js';
import { OPTIONAL_BODY } from '../openapi-document.js';
import { answer } from './control-failures.js';

export interface ControlRouteOptions {
  plane: ControlPlane;
  symbols: readonly string[];
  defaultMode: string;
  /** EXECUTION_MODE=live: the exchange and testnet flag GET /control/mode names; null in paper mode. */
  exchange?: { exchange: string; testnet: boolean } | null;
  /** Control POSTs per key per minute. */
  rateLimit: number;
}

const security = [{ bearerAuth: [] }];

/** Pause, resume and kill take an optional body: no body at all means "no reason given". */
const bodyOptional: preValidationHookHandler = (request, _reply, done) => {
  if (request.body === undefined || request.body === null) request.body = {};
  done();
};

export const controlRoutes: FastifyPluginAsyncTypebox<ControlRouteOptions> = async (
  app,
  { plane, symbols, defaultMode, exchange, rateLimit },
) => {
  // One limiter instance reused by every throttled route, so a key has one budget for all control
  // POSTs rather than one per route. It runs as a preHandler, after authentication set keyId.
  const throttle = app.rateLimit({ max: rateLimit, timeWindow: '1 minute' });

  app.get(
    '/mode',
    {
      schema: {
        tags: ['control'],
        summary: 'Default execution mode',
        security,
        response: { 200: ModeSchema, ...protectedErrors },
      },
    },
    // Paper: exactly the spec's body. Live: which exchange, and whether it is the testnet.
    async () =>
      exchange
        ? { default_mode: defaultMode, exchange: exchange.exchange, testnet: exchange.testnet }
        : { default_mode: defaultMode },
  );

  app.get(
    '/status',
    {
      schema: {
        tags: ['control'],
        summary: 'Current system state',
        security,
        response: { 200: StatusSchema, ...protectedErrors },
      },
    },
    async () => plane.status(),
  );

  app.post(
    '/pause',
    {
      preValidation: bodyOptional,
      preHandler: throttle,
      schema: {
        tags: ['control'],
        summary: 'Pause the coordinator loop (open orders stay)',
        description: 'running → paused. Already paused: 200 with changed=false. Killed: 409.',
        security,
        body: ReasonBody(DEFAULT_REASONS.pause, 'maintenance window'),
        [OPTIONAL_BODY]: true,
        response: { 200: TransitionResultSchema, ...conflict, ...tooMany, ...protectedErrors },
      },
    },
    async (request, reply) => {
      const reason = request.body?.reason ?? DEFAULT_REASONS.pause;
      return answer(reply, await plane.transition({ type: 'control.pause', reason }, request.keyId));
    },
  );

  app.post(
    '/resume',
    {
      preValidation: bodyOptional,
      preHandler: throttle,
      schema: {
        tags: ['control'],
        summary: 'Resume the coordinator loop after a pause',
        description:
          'paused → running. Already running: 200 with changed=false. Killed: 409 (only a manual restart ends killed). Body optional.',
        security,
        body: ReasonBody(DEFAULT_REASONS.resume, 'maintenance done'),
        [OPTIONAL_BODY]: true,
        response: { 200: TransitionResultSchema, ...conflict, ...tooMany, ...protectedErrors },
      },
    },
    async (request, reply) => {
      const reason = request.body?.reason ?? DEFAULT_REASONS.resume;
      return answer(reply, await plane.transition({ type: 'control.resume', reason }, request.keyId));
    },
  );

  app.post(
    '/kill-switch',
    {
      preValidation: bodyOptional,
      schema: {
        tags: ['control'],
        summary: 'Emergency stop: killed, and cancels prepared for every open order',
        description:
          'One-way; repeated calls answer 200 with the same shape, their `reason` the one the kill recorded ' +
          '(a repeat changes nothing). Never rate limited. Only a manual restart ends killed. ' +
          '`flatten: true` also queues a flatten of every position once the kill is recorded (as POST /control/flatten ' +
          'with symbols null; once per kill); the answer is the same.',
        security,
        body: KillSwitchBody(DEFAULT_REASONS.kill, 'exchange incident'),
        [OPTIONAL_BODY]: true,
        response: { 200: KillSwitchResultSchema, ...protectedErrors },
      },
    },
    async (request, reply) =>
      answer(
        reply,
        await plane.kill(request.body?.reason ?? DEFAULT_REASONS.kill, request.keyId, request.body?.flatten === true),
      ),
  );

  app.post(
    '/cancel-all',
    {
      preHandler: throttle,
      schema: {
        tags: ['control'],
        summary: 'Prepare cancel-all-orders instructions (queued for the trading process)',
        description: '`symbols: null` covers every whitelisted symbol. Allowed in every state.',
        security,
        body: cancelAllBody(symbols),
        response: { 200: CancelAllResultSchema, ...tooMany, ...protectedErrors },
      },
    },
    async (request, reply) => answer(reply, await plane.cancelAll(request.body.symbols, request.keyId)),
  );

  app.post(
    '/deleverage',
    {
      preHandler: throttle,
      schema: {
        tags: ['control'],
        summary: 'Prepare a reduce-only order lowering exposure on a symbol',
        description:
          'qty = |position| × reduce_pct rounded down to the lot size, side opposite the position. ' +
          'Allowed in every state (it only reduces risk). When flat: 200 with order null and a message.',
        security,
        body: deleverageBody(symbols),
        response: { 200: DeleverageResultSchema, ...tooMany, ...protectedErrors },
      },
    },
    async (request, reply) => {
      const { symbol, reduce_pct: reducePct } = request.body;
      return answer(reply, await plane.deleverage(symbol, reducePct, request.keyId));
    },
  );
};
