/**
 * POST /control/flatten: close positions reduce-only, in any state (running, paused, killed). Its own
 * file so the control routes of the spec stay as they are. Like the kill switch it is never rate
 * limited: it is the way out in an incident, and a repeat only queues a flatten that finds less to do.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ControlPlane } from '../../application/control-plane.js';
import { DEFAULT_REASONS } from '../../application/control-plane.js';
import { REASON_MAX_LENGTH } from '../../domain/control.js';
import { closeSymbolSchema, protectedErrors } from '../schemas.js';
import { answer } from './control-failures.js';

export interface FlattenRouteOptions {
  plane: ControlPlane;
  symbols: readonly string[];
}

function flattenBody(symbols: readonly string[]) {
  return Type.Object(
    {
      symbols: Type.Union(
        [Type.Array(closeSymbolSchema(symbols), { minItems: 1, maxItems: 100, uniqueItems: true }), Type.Null()],
        {
          description:
            'Symbols whose positions to close (whitelisted or not: a position SYMBOLS no longer lists is closed too), ' +
            'or null for every open position',
        },
      ),
      reason: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: REASON_MAX_LENGTH,
          description: `Why; defaults to "${DEFAULT_REASONS.flatten}"`,
          examples: ['exchange incident: closing all'],
        }),
      ),
    },
    { additionalProperties: false },
  );
}

const FlattenResultSchema = Type.Object({
  action: Type.Literal('flatten'),
  symbols: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'As asked; null = every position' }),
  reason: Type.String(),
  command_id: Type.String({
    description: 'Id of the queued flatten command; its result (GET /control/events, the audit trail) says what closed',
  }),
  positions: Type.Array(Type.Object({ symbol: Type.String(), qty: Type.Number({ description: 'Signed' }) }), {
    description: 'Open positions of those symbols in the last portfolio the trading process published',
  }),
  message: Type.String(),
  coalesced: Type.Optional(
    Type.Boolean({
      description:
        'True (status 202) when a flatten of the same symbols was still queued or running: its id is returned and nothing new is queued',
    }),
  ),
});

export const flattenRoutes: FastifyPluginAsyncTypebox<FlattenRouteOptions> = async (app, { plane, symbols }) => {
  app.post(
    '/flatten',
    {
      schema: {
        tags: ['control'],
        summary: 'Close positions reduce-only (queued for the trading process), in any state',
        description:
          'Queues a flatten command: the trading process closes each chosen position with a reduce-only market ' +
          'order through the risk engine and the order manager (a reduce-only close passes every risk limit; ' +
          'one the liquidity guard scales is finished in the next round), in running, paused or killed. ' +
          'Already flat: the command completes with status `nothing`. Never rate limited; a flatten of the same ' +
          "symbols (any order) while one is still open answers 202 with that one's id and queues nothing.",
        security: [{ bearerAuth: [] }],
        body: flattenBody(symbols),
        response: { 200: FlattenResultSchema, 202: FlattenResultSchema, ...protectedErrors },
      },
    },
    async (request, reply) => {
      const { symbols: chosen, reason = DEFAULT_REASONS.flatten } = request.body;
      const outcome = await plane.flatten(chosen, reason, request.keyId);
      if (outcome.ok && outcome.value.coalesced) reply.code(202);
      return answer(reply, outcome);
    },
  );
};
