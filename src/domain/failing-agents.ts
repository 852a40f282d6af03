/**
 * Which strategy agents keep failing, for the heartbeat and so /health (issue 19). The rule: an
 * agent is failing while at least one of its last FAILING_WINDOW_ANALYSES analyses (one per cycle
 * it ran in) threw for some symbol. Counted in the agent's own analyses, not in time, so the rule
 * reads the same at 1 s and at 60 s cycles, and a single clean cycle between two failing ones does
 * not make /health flap. A cycle in which the agents did not run (paused, killed, a market that did
 * not load) changes nothing: the agent has neither failed nor recovered. Pure: "now" is given.
 *
 * What an operator is told (issue 35, "agent errors that persist"): `analysed` answers `persisting`
 * once a spell, when the agent threw in each of its last FAILING_WINDOW_ANALYSES analyses, and
 * `recovered` when such a spell ends. A throw now and then between clean analyses is failing for
 * /health but is not told.
 */
import { boundedMessage } from './event-lines.js';

/** Analyses, counted back from the latest, in which an error keeps an agent failing. */
export const FAILING_WINDOW_ANALYSES = 3;

/** An agent that is failing now: since when, how often in this spell, and its latest error. */
export interface FailingAgent {
  agent: string;
  /** Epoch ms of the first error of this spell (the analysis that made it failing). */
  since: number;
  /** Epoch ms of its latest error. */
  lastErrorAt: number;
  /** Errors (one per symbol and analysis) since `since`. */
  errors: number;
  /** The latest error's symbol and message. */
  symbol: string;
  message: string;
}

interface AgentRecord {
  /** Whether each of the last FAILING_WINDOW_ANALYSES analyses threw, oldest first. */
  recent: boolean[];
  spell: FailingAgent | null;
  /** Whether this spell's errors persisted (and were told). */
  told: boolean;
}

/** A change an operator is told about: the agent's errors persisted, or that spell ended. */
export type FailingChange =
  { kind: 'persisting'; agent: FailingAgent } | { kind: 'recovered'; agent: FailingAgent; at: number };

export interface FailingAgents {
  /** One analysis of `agent` ended with these errors (none: it ran clean); what to tell, if anything. */
  analysed(agent: string, errors: readonly { symbol: string; message: string }[], now: number): FailingChange | null;
  /** The agents failing now, in the order they began to fail. */
  list(): FailingAgent[];
}

export function createFailingAgents(window = FAILING_WINDOW_ANALYSES): FailingAgents {
  const agents = new Map<string, AgentRecord>();
  return {
    analysed(agent, errors, now) {
      const record = agents.get(agent) ?? { recent: [], spell: null, told: false };
      agents.set(agent, record);
      record.recent.push(errors.length > 0);
      if (record.recent.length > window) record.recent.shift();
      const latest = errors.at(-1);
      if (latest !== undefined) {
        const spell = (record.spell ??= { agent, since: now, lastErrorAt: now, errors: 0, symbol: '', message: '' });
        spell.lastErrorAt = now;
        spell.errors += errors.length;
        spell.symbol = latest.symbol;
        spell.message = boundedMessage(latest.message);
        if (!record.told && record.recent.length === window && record.recent.every(Boolean)) {
          record.told = true;
          return { kind: 'persisting', agent: { ...spell } };
        }
      } else if (record.spell !== null && !record.recent.includes(true)) {
        const ended = record.spell;
        const told = record.told;
        record.spell = null;
        record.told = false;
        if (told) return { kind: 'recovered', agent: { ...ended }, at: now };
      }
      return null;
    },
    list() {
      return [...agents.values()]
        .flatMap((r) => (r.spell ? [{ ...r.spell }] : []))
        .sort((a, b) => a.since - b.since || a.agent.localeCompare(b.agent));
    },
  };
}
