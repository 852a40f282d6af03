/**
 * GET /control/events: the live event stream (Server-Sent Events) behind bearer auth. Thin: it
 * validates Last-Event-ID, hands the response to an SseClient and registers it with the process's
 * one EventHub, which this plugin creates and ends on shutdown (preClose, so streams end before the
 * server waits for its connections).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';
import type { HubTimings } from '../events/event-hub.js';
import { DEFAULT_HUB_TIMINGS, EventHub } from '../events/event-hub.js';
import { EventsHeaders, EventsResponse } from '../events/schemas.js';
import type { SseLimits } from '../events/sse-client.js';
import { DEFAULT_SSE_LIMITS, SseClient } from '../events/sse-client.js';
import { liveMessage, parseLastEventId } from '../events/stream-events.js';
import { protectedErrors } from '../schemas.js';
import type { HealthStoreView } from '../store-view.js';

export interface EventStreamOptions {
  store: Store;
  clock: Clock;
  timings?: Partial<HubTimings>;
  limits?: Partial<SseLimits>;
  /** Given to the hub's health checks (src/api/store-view.ts). */
  storeView?: HealthStoreView;
}

export const eventRoutes: FastifyPluginAsyncTypebox<EventStreamOptions> = async (app, options) => {
  const hub = new EventHub(
    options.store,
    options.clock,
    app.log,
    { ...DEFAULT_HUB_TIMINGS, ...options.timings },
    options.storeView,
  );
  const limits = { ...DEFAULT_SSE_LIMITS, ...options.limits };
  app.addHook('preClose', async () => hub.close());

  app.get(
    '/events',
    {
      schema: {
        tags: ['control'],
        summary: 'Live event stream (Server-Sent Events)',
        description:
          'Control changes, trading heartbeats, decisions, fills, command results and health changes as they happen.',
        security: [{ bearerAuth: [] }],
        headers: EventsHeaders,
        response: { 200: EventsResponse, ...protectedErrors },
      },
    },
    async (request, reply) => {
      const header = request.headers['last-event-id'];
      const from = header ? parseLastEventId(header) : null;
      await hub.start();
      const control = await options.store.control.read();
      const cursor = hub.cursor;
      // An id beyond the audit trail's end is not from this store: start from now.
      const resume = from !== null && from.seq <= cursor ? from : null;

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const client = new SseClient(raw, resume ?? { seq: cursor, sub: 0 }, limits, (reason) =>
        request.log.warn({ keyId: request.keyId, reason }, 'event stream: slow client dropped'),
      );
      raw.on('close', () => hub.remove(client));
      hub.add(client);
      client.send(
        liveMessage('snapshot', {
          control: {
            state: control.state,
            epoch: control.epoch,
            reason: control.reason,
            changed_at: control.changed_at,
          },
          heartbeat: hub.latestHeartbeat,
          machines: hub.latestMachines,
          health: hub.latestHealth,
          cursor,
          resumed_from: resume === null ? null : header?.trim(),
        }),
      );
      if (resume === null) {
        client.goLive();
        return;
      }
      try {
        await client.replay(options.store.events);
      } catch (err) {
        // Headers are sent: the only honest answer is to end; the client reconnects from its last id.
        request.log.warn({ err }, 'event stream: replay failed');
        client.end();
      }
    },
  );
};
