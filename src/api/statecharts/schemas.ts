/**
 * Schemas of the machines view: GET /control/machines and the `machines` stream event. A state
 * node's children are state nodes, so the node is one shared schema (`MachineStateNode`, added with
 * the other shared schemas in docs.ts) that refers to itself: OpenAPI 3.0 shows it as one component.
 */
import { Type } from 'typebox';
import type { TSchema } from 'typebox';

export const STATE_NODE_ID = 'MachineStateNode';

export const StateNodeSchema = Type.Object(
  {
    id: Type.String({ description: "The machine's own StateNode id, e.g. `trading.control.running.cycling`" }),
    key: Type.String({ description: 'The key of the node in its parent, e.g. `cycling`' }),
    type: Type.Union(
      [
        Type.Literal('atomic'),
        Type.Literal('compound'),
        Type.Literal('parallel'),
        Type.Literal('final'),
        Type.Literal('history'),
      ],
      { description: 'parallel: every child region is active at once' },
    ),
    children: Type.Array(Type.Ref(STATE_NODE_ID) as unknown as TSchema, { description: 'In definition order' }),
  },
  { $id: STATE_NODE_ID, description: 'A state node of a machine definition, with its children' },
);

const MachineIdSchema = Type.Union([Type.Literal('trading'), Type.Literal('cycle'), Type.Literal('order-manager')]);

const ActiveIds = (what: string) =>
  Type.Array(Type.String(), { description: `Active StateNode ids of ${what}, ancestors included` });

const PublishedAt = Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
  description: 'When the trading process last published its active states; null when it never did',
});

const CycleNumber = Type.Union([Type.Integer(), Type.Null()], {
  description: 'The number of the cycle actor running then; null when none was',
});

export const MachinesResponseSchema = Type.Object({
  published_at: PublishedAt,
  cycle: CycleNumber,
  machines: Type.Array(
    Type.Object({
      id: MachineIdSchema,
      label: Type.String(),
      root: Type.Ref(STATE_NODE_ID) as unknown as TSchema,
      active: ActiveIds('this machine ([] when nothing was published, or no cycle runs)'),
    }),
    { description: 'The root statechart, the current cycle and the order manager (parallel regions)' },
  ),
});

/** Data of the `machines` stream event (described in the events text of events/schemas.ts). */
export interface MachinesEventData {
  published_at: string | null;
  cycle: number | null;
  active: { trading: string[]; cycle: string[]; 'order-manager': string[] };
}
