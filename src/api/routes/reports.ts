/** /reports routes: the coordinator's decision log from the hash-chained event store, newest first. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { EventStore } from '../../ports/event-store.js';
import { DecisionEntrySchema, DecisionsQuery, protectedErrors } from '../schemas.js';

export const reportRoutes: FastifyPluginAsyncTypebox<{ events: EventStore }> = async (app, { events }) => {
  app.get(
    '/decisions',
    {
      schema: {
        tags: ['reports'],
        summary: 'Recent decision log entries, newest first',
        description:
          'Page with `before` = the smallest `seq` of the previous page. `since` inclusive, `until` exclusive.',
        security: [{ bearerAuth: [] }],
        querystring: DecisionsQuery,
        response: { 200: Type.Array(DecisionEntrySchema), ...protectedErrors },
      },
    },
    async (request) => {
      const { limit, before, symbol, since, until } = request.query;
      const entries = await events.query({ kind: 'decision', limit, before, symbol, since, until });
      return entries.map((e) => ({
        seq: e.seq,
        at: e.at,
        symbol: e.symbol,
        hash: e.hash,
        prev_hash: e.prev_hash,
        decision: e.body,
      }));
    },
  );
};
