/**
 * Typed accessors for the actors of the trading system, found by systemId. `system.get()` returns an
 * untyped ref; these name the machine behind each id once, so senders get their events checked and
 * nobody casts at the call site. The root spawns every child at entry, so a missing one is a wiring
 * error and is reported by name.
 */
import type { ActorRefFrom, ActorSystem, AnyActorRef } from 'xstate';
import type { agentMachine } from './agent.machine.js';
import type { allocatorMachine } from './allocator.machine.js';
import type { arbiterMachine } from './arbiter.machine.js';
import type { orderManagerMachine } from './order-manager.machine.js';
import type { riskMachine } from './risk.machine.js';
import type { RiskStateRecord } from '../src/domain/risk/trading-state.js';

type OmsRef = ActorRefFrom<typeof orderManagerMachine>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- XState's own AnyActorSystem is ActorSystem<any>, not exported
export type AnyActorSystem = ActorSystem<any>;

/** The systemId of a strategy agent's actor. */
export const agentSystemId = (strategyName: string): string => `agent:${strategyName}`;

function required<T extends AnyActorRef>(system: AnyActorSystem, id: string): T {
  const ref = system.get(id) as T | undefined;
  if (!ref) throw new Error(`the actor "${id}" is not in the trading system`);
  return ref;
}

export const agentOf = (system: AnyActorSystem, id: string) => required<ActorRefFrom<typeof agentMachine>>(system, id);
export const arbiterOf = (system: AnyActorSystem) => required<ActorRefFrom<typeof arbiterMachine>>(system, 'arbiter');
export const allocatorOf = (system: AnyActorSystem) =>
  required<ActorRefFrom<typeof allocatorMachine>>(system, 'allocator');
export const riskOf = (system: AnyActorSystem) => required<ActorRefFrom<typeof riskMachine>>(system, 'risk');
export const omsOf = (system: AnyActorSystem) => required<OmsRef>(system, 'oms');
/** The root actor (systemId `trading`), for implementations that report back to it through `system`. */
export const rootOf = (system: AnyActorSystem) => required<AnyActorRef>(system, 'trading');
/** The order manager when it is still in the system (it is gone after the root stops). */
export const findOms = (system: AnyActorSystem) => system.get('oms') as OmsRef | undefined;

/**
 * The allocator's memory of which agent set each symbol's position, read (never changed) from its
 * snapshot so agents can be told their own positions and the arbiter which exits change something.
 * Empty when the allocator keeps none (a stand-in in a test) or is gone.
 */
export function ownersOf(system: AnyActorSystem): ReadonlyMap<string, string> {
  const context: unknown = (system.get('allocator') as AnyActorRef | undefined)?.getSnapshot()?.context;
  const owners = (context as { owners?: unknown } | undefined)?.owners;
  return owners instanceof Map ? (owners as ReadonlyMap<string, string>) : new Map();
}

/**
 * The risk engine's trading state (active, reducing, halted), read from its snapshot for the
 * heartbeat; null when the risk actor keeps none (a stand-in in a test) or is gone.
 */
export function riskStateOf(system: AnyActorSystem): RiskStateRecord | null {
  const context: unknown = (system.get('risk') as AnyActorRef | undefined)?.getSnapshot()?.context;
  const trading = (context as { trading?: RiskStateRecord } | undefined)?.trading;
  return trading && typeof trading.state === 'string' ? trading : null;
}
