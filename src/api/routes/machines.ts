/**
 * GET /control/machines: the console's live view of the actor system. The trees come from the
 * machine definitions (src/application/machine-trees.ts), built once when the API starts; the active
 * states from the document the trading process publishes. Behind bearer auth like every /control
 * route; a store failure is the usual 503 (the error handler).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { machineViews } from '../../application/machine-trees.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';
import { createMachinesReader } from '../statecharts/machines-reader.js';
import { MachinesResponseSchema } from '../statecharts/schemas.js';
import { protectedErrors } from '../schemas.js';

export const machineRoutes: FastifyPluginAsyncTypebox<{ kv: KeyValueStore }> = async (app, { kv }) => {
  const views = machineViews();
  const reader = createMachinesReader(kv, app.log);

  app.get(
    '/machines',
    {
      schema: {
        tags: ['control'],
        summary: 'The statecharts and their active states (live view of the actor system)',
        description:
          'The root statechart, the current cycle and the order manager as trees of state nodes from ' +
          'their definitions, each with the ids of its active nodes as the trading process last published ' +
          'them (at most every 100 ms). Nothing published yet (or a malformed document): `published_at` ' +
          'null and every `active` empty. The `machines` event of GET /control/events carries changes.',
        security: [{ bearerAuth: [] }],
        response: { 200: MachinesResponseSchema, ...protectedErrors },
      },
    },
    async () => {
      const state = await reader.read();
      return {
        published_at: state.published_at,
        cycle: state.cycle,
        machines: views.map((view) => ({ ...view, active: state.active[view.id] })),
      };
    },
  );
};
