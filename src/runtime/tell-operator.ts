/**
 * The `tcs: …` line on stderr that the launcher, the trading process and the operator commands write
 * for a person at a terminal. Such lines quote stored text (a kill reason, a child's last words), so
 * everything a terminal would act on is escaped here, in the one place they all pass.
 */
import { terminalSafeLines } from '../domain/terminal-text.js';

export function tellOperator(message: string): void {
  process.stderr.write(`tcs: ${terminalSafeLines(message)}\n`);
}
