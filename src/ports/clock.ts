/** Clock port: the one source of "now" outside machines, injectable so tests control time. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
