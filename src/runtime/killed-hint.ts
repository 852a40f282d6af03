/**
 * What a start on a killed store tells the operator: a latched kill looks like a process that does
 * nothing, so say plainly that it is killed, since when and why, and the exact command that ends it.
 */
import type { ControlRecord } from '../domain/control.js';
import { terminalSafe } from '../domain/terminal-text.js';

/** `resetCommand` is the command line before `--reset-kill`, e.g. `npm start --` or `tcs trade`. */
export function killedHint(record: ControlRecord, resetCommand: string): string {
  // The reason is anyone's text with a key: escaped here, on one line, so it cannot pass for our words.
  const reason = record.reason ? `"${terminalSafe(record.reason)}"` : 'none recorded';
  return (
    `the system is KILLED since ${terminalSafe(record.changed_at)} (reason: ${reason}): nothing trades until an operator ` +
    `ends the kill, audited, with: ${resetCommand} --reset-kill --reason "…"`
  );
}
