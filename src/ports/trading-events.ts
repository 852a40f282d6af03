/**
 * Where the trading process's event lines go. The application emits typed lines; the composition
 * root fans them out to stdout (the spec's event log) and to the trading metrics.
 */
import type { EventLine } from '../domain/event-lines.js';

export interface TradingEvents {
  emit(line: EventLine): void;
}
