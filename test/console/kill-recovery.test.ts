/**
 * The KILLED banner's way out (console/lib/kill-recovery.ts) is a command the CLI takes: the flags it
 * shows are in `tcs start --help` and `tcs trade --help`, and --reason goes with --reset-kill.
 */
import { describe, expect, it } from 'vitest';
import { KILL_RESET_COMMAND, KILL_RESET_TRADE_COMMAND } from '../../console/lib/kill-recovery.js';
import { commands } from '../../src/cli/commands.js';

const usage = (name: string) => commands.find((c) => c.name === name)?.help.split('\n')[0] ?? '';

describe('the KILLED banner', () => {
  it('shows the real reset commands of tcs start (through npm start) and tcs trade', () => {
    expect(KILL_RESET_COMMAND).toBe('npm start -- --reset-kill --reason "…"');
    expect(usage('start')).toContain('[--reset-kill] [--reason TEXT]');
    expect(KILL_RESET_TRADE_COMMAND).toBe('node bin/tcs.mjs trade --reset-kill --reason "…"');
    expect(usage('trade')).toContain('[--reset-kill] [--reason TEXT]');
  });
});
