/**
 * /reports routes: the coordinator's decision log from the hash-chained event store, newest first,
 * and the notifications its newest entries carry (what `tcs notify` sends, by the same selection).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { EventStore } from '../../ports/event-store.js';
import { selectNotifications } from '../../domain/notifications/select.js';
import {
  DecisionEntrySchema,
  DecisionsQuery,
  NotificationSchema,
  NotificationsQuery,
  protectedErrors,
} from '../schemas.js';

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

  app.get(
    '/notifications',
    {
      schema: {
        tags: ['reports'],
        summary: 'The notifications the newest audit entries carry, newest first',
        description:
          'What `tcs notify` sends (fills, kills, control changes, kill resets, halts ended, risk state ' +
          'changes, liquidations, agent errors), made from the newest `limit` audit entries of any kind by ' +
          'the same selection; read-only (nothing is delivered or marked). Page with `before` = the smallest ' +
          '`seq` of the previous page.',
        security: [{ bearerAuth: [] }],
        querystring: NotificationsQuery,
        response: { 200: Type.Array(NotificationSchema), ...protectedErrors },
      },
    },
    async (request) => {
      const { limit, before } = request.query;
      const entries = await events.query({ limit, before });
      // The notifier's own fields only: `data` (the entry's body) stays in the audit trail.
      return entries.flatMap((e) => selectNotifications(e).map(({ data: _data, ...n }) => n));
    },
  );
};
