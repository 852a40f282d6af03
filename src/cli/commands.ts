/** The table of `tcs` subcommands: name, one-line summary, full help, and what runs. */
import { parseArgs } from 'node:util';
import { generateKey } from '../runtime/keys.js';
import { loadEnv } from '../runtime/environment.js';

export interface Command {
  name: string;
  summary: string;
  help: string;
  /** Exit code, or -1 for a process that keeps running and exits by itself. */
  run(args: string[]): Promise<number>;
}

export const commands: Command[] = [
  {
    name: 'start',
    summary: 'Run the system: the API and the trading process as two supervised OS processes',
    help: `Usage: tcs start [--reset-kill] [--reason TEXT] [--inspect]

Launches the API process and the trading process, restarts a crashed one with backoff, and shuts
both down cleanly on SIGINT/SIGTERM. On the first run without a .env it writes one (mode 0600) with
fresh SERVICE_API_KEY and RISK_HMAC_SECRET.

Options:
  --reset-kill     The manual restart after a kill: sets killed → running (audited) before starting.
  --reason TEXT    Why, recorded with --reset-kill (default "manual restart by operator").
  --inspect        Connect the trading actor system to the Stately inspector (see README).
  -h, --help       This help.`,
    async run(args) {
      const { values } = parseArgs({ args, options: { 'reset-kill': { type: 'boolean' }, reason: { type: 'string' }, inspect: { type: 'boolean' } }, strict: true });
      const { runLauncher } = await import('../runtime/launcher.js');
      await runLauncher({ resetKill: values['reset-kill'] === true, reason: values.reason, inspect: values.inspect === true });
      return -1;
    },
  },
  {
    name: 'api',
    summary: 'Run only the HTTP API process (what `tcs start` launches)',
    help: `Usage: tcs api

Serves the control plane on HOST:PORT (default 127.0.0.1:8000). Needs SERVICE_API_KEY (≥ 32
characters; several comma-separated during a rotation) and a reachable STORE_URL.

Options:
  -h, --help   This help.`,
    async run(args) {
      parseArgs({ args, options: {}, strict: true });
      const { runApiProcess } = await import('../runtime/api-process.js');
      await runApiProcess(loadEnv());
      return -1;
    },
  },
  {
    name: 'keygen',
    summary: 'Print a new URL-safe key from 32 random bytes (for SERVICE_API_KEY or RISK_HMAC_SECRET)',
    help: `Usage: tcs keygen

Prints a URL-safe random key made from 32 random bytes (43 characters).

Options:
  -h, --help   This help.`,
    async run(args) {
      parseArgs({ args, options: {}, strict: true });
      console.log(generateKey());
      return 0;
    },
  },
];
