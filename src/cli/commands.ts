/** The table of `tcs` subcommands: name, one-line summary, full help, and what runs. */
import { parseArgs } from 'node:util';
import { ConfigError } from '../runtime/config.js';
import { loadEnv } from '../runtime/environment.js';
import { printNewKey } from '../runtime/keygen.js';
import { operatorReason } from '../runtime/operator-reason.js';
import { DATA_DOWNLOAD_HELP } from '../runtime/data-download.js';
import { parseSimulateArgs, SIMULATE_HELP } from '../runtime/simulate/simulate-options.js';
import { sweepCommands } from './sweep-commands.js';
import { STRATEGY_CHECK_HELP, STRATEGY_NEW_HELP } from '../runtime/strategy-help.js';
import { VENUE_CHECK_HELP } from '../runtime/venue-check-help.js';

export interface Command {
  name: string;
  summary: string;
  help: string;
  /** A subcommand's own help (`tcs data download --help`); the command's help otherwise. */
  helpFor?(args: string[]): string | undefined;
  /** Exit code, or -1 for a process that keeps running and exits by itself. */
  run(args: string[]): Promise<number>;
}

/** The options `tcs start` and `tcs trade` share: the audited reset of a kill, and the inspector. */
const resetKillOptions = {
  'reset-kill': { type: 'boolean' },
  reason: { type: 'string' },
  inspect: { type: 'boolean' },
} as const;

/** True with --reset-kill; --reason alone is refused rather than silently ignored. */
function resetKillRequested(values: { 'reset-kill'?: boolean; reason?: string }): boolean {
  if (values.reason !== undefined && values['reset-kill'] !== true) {
    throw new ConfigError('--reason only goes with --reset-kill (it is the reason recorded for the reset)');
  }
  return values['reset-kill'] === true;
}

const DATA_USAGE = 'Usage: tcs data check <dir> | tcs data download …';

/** `tcs data` subcommands: each parses its own arguments and returns an exit code. */
const dataSubcommands: Record<string, (args: string[]) => Promise<number>> = {
  async check(args) {
    let positionals: string[];
    try {
      ({ positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true }));
    } catch (err) {
      console.error(`tcs data check: ${(err as Error).message}\nUsage: tcs data check <dir>`);
      return 2;
    }
    if (positionals.length !== 1) {
      console.error(
        `tcs data check: ${positionals.length === 0 ? 'missing <dir>' : 'one <dir> only'}\nUsage: tcs data check <dir>`,
      );
      return 2;
    }
    const { checkDataDir } = await import('../runtime/data-check.js');
    return checkDataDir(positionals[0]!);
  },
  async download(args) {
    const { runDataDownload } = await import('../runtime/data-download.js');
    return runDataDownload(args, loadEnv());
  },
};

export const commands: Command[] = [
  {
    name: 'start',
    summary: 'Run the system: the API and the trading process as two supervised OS processes',
    help: `Usage: tcs start [--reset-kill] [--reason TEXT] [--inspect]

Launches the API process and, once the API listens, the trading process; restarts a crashed one
with backoff, and shuts both down cleanly on SIGINT/SIGTERM. It stops everything instead of
restarting when a child exits 2 (configuration error; tcs start exits 2) or fails
RESTART_MAX_FAILURES times within RESTART_WINDOW_SECONDS (default 5 within 60 s; tcs start exits
1); its last line names the child and why. On the first run without a .env it writes one (mode
0600) with a fresh SERVICE_API_KEY, RISK_HMAC_SECRET and CONTROL_SECRET, each only if the
environment lacks it.

Options:
  --reset-kill     The manual restart after a kill: sets killed → running (audited) before starting.
  --reason TEXT    Why, recorded with --reset-kill (default "manual restart by operator").
  --inspect        Connect the trading actor system to the Stately inspector (see docs/develop/inspecting-machines.md).
  -h, --help       This help.`,
    async run(args) {
      const { values } = parseArgs({ args, options: resetKillOptions, strict: true });
      const resetKill = resetKillRequested(values);
      const { runLauncher } = await import('../runtime/launcher.js');
      await runLauncher({
        resetKill,
        reason: operatorReason(values.reason),
        inspect: values.inspect === true,
      });
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
    name: 'trade',
    summary: 'Run only the trading process (what `tcs start` launches)',
    help: `Usage: tcs trade [--reset-kill] [--reason TEXT] [--inspect]

Runs the trading cycle (paper mode) against the store in STORE_URL: event lines on stdout, one
JSON object per line; diagnostics on stderr. Needs RISK_HMAC_SECRET and CONTROL_SECRET (the API's;
≥ 32 characters each). Started on
a killed store it says so on stderr and trades nothing until the kill is reset.

Options:
  --reset-kill     The manual restart after a kill: sets killed → running (audited, the same reset
                   as \`tcs start --reset-kill\`), then trades. Refused while another trading process
                   runs on the store: stop that one first. Under docker compose:
                     docker compose stop trading
                     docker compose run --rm trading trade --reset-kill --reason "…"
                   (see docs/operate/incidents.md, "Ending a kill").
  --reason TEXT    Why, recorded with --reset-kill (default "manual restart by operator").
  --inspect        Send actor events to the Stately inspector over WebSocket (STATELY_INSPECT_URL,
                   default ws://localhost:8080).
  -h, --help       This help.`,
    async run(args) {
      const { values } = parseArgs({ args, options: resetKillOptions, strict: true });
      const { runTradingProcess } = await import('../runtime/trading/trading-process.js');
      await runTradingProcess(loadEnv(), {
        inspect: values.inspect === true,
        ...(resetKillRequested(values) ? { resetKill: { reason: operatorReason(values.reason) } } : {}),
      });
      return -1;
    },
  },
  {
    name: 'notify',
    summary:
      'Deliver notifications (fills, kills, halts ending, risk changes…) to webhooks and Telegram, from the audit trail; run the Telegram bot',
    help: `Usage: tcs notify

Runs the notifier beside \`tcs start\`, on the same store (STORE_URL): it follows the audit trail
and sends the chosen events to each of NOTIFY_WEBHOOK_URLS, signed with NOTIFY_WEBHOOK_SECRET
(header x-tcs-signature: t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">), and to the Telegram chats
of TELEGRAM_CHAT_IDS, retrying with backoff from an outbox kept in the store, so a restart or a
receiver down for an hour loses nothing. Delivery is at least once: receivers drop a repeat by its
x-tcs-delivery id. A receiver that is down never slows trading or control. Runs until SIGTERM or
Ctrl-C. docs/operate/notifications.md.

Targets: URLs separated by spaces, commas or ";"; a discord: or slack: prefix sends that service's
body; ?kinds=fill,kill keeps only those kinds.

Telegram (TELEGRAM_BOT_TOKEN from @BotFather, TELEGRAM_CHAT_IDS; needs CONTROL_SECRET): the listed
chats get the notifications (TELEGRAM_KINDS to choose) and may send /status, /positions,
/pause [reason], /resume [reason] and /kill <reason>, which asks to be confirmed within 60 s (its
button, or /confirm <code>). Commands go through the same control plane as the REST API, audited
with telegram:<chat id> as the actor. Any other chat is answered nothing, changes nothing, and its
messages are audited as refused (telegram_refused). A token the Bot API refuses ends the notifier
(exit 1).

Options:
  -h, --help   This help.`,
    async run(args) {
      parseArgs({ args, options: {}, allowPositionals: false, strict: true });
      const { runNotifier } = await import('../runtime/notify.js');
      return runNotifier(loadEnv());
    },
  },
  {
    name: 'audit',
    summary:
      'Check the audit trail (`tcs audit verify`: archive + hot store as one chain), archive and trim it (`tcs audit archive`), or export a range (`tcs audit export`)',
    help: `Usage: tcs audit verify [--full]
       tcs audit archive
       tcs audit export [--from <seq|iso>] [--to <seq|iso>] [--out file] [--format csv|jsonl]

archive: writes entries older than AUDIT_RETAIN (entries, or an age like 7d) to AUDIT_ARCHIVE_URL
(file:<directory>, the default file:var/audit-archive, or postgres://user@host/database) as
verifiable segments, then trims them from the store. Safe to rerun and to interrupt; run it from
cron or a systemd timer (docs/operate/retention.md).

verify: checks the archive (incrementally, from the last segment verified) and that the store's
trimmed window resumes where it ends, then:

Re-hashes every entry of the event store (STORE_URL), checks each link of the chain, and holds
its end against the head stored with every append, so entries cut from the end are noticed too.
Exits 0 when intact; exits 1 naming the first bad entry and why when anything was altered,
removed or added behind the service's back.
  --full   Re-hash the whole archive, not only what came after the last verification (a PostgreSQL
           archive's earlier rows are otherwise only counted; a file: archive's earlier segments are
           compared by digest). Slower: minutes for a year of 60 s cycles.

export: writes a range of the trail, archive and store read as one chain, for an accountant.
  --from <seq|iso>   First entry: a seq (inclusive) or an ISO 8601 UTC date/time (entries at or
                     after it). Default: the first entry.
  --to <seq|iso>     Last entry: a seq (inclusive) or a date/time (entries before it, so
                     --from 2026-01-01 --to 2026-02-01 is January). Default: the newest entry.
  --out <file>       Write to this file (replaced only once the whole range was read); default stdout.
  --format csv|jsonl csv (default): one row per order a cycle sent or refused, one per other entry
                     (columns in docs/operate/retention.md); jsonl: the entries as stored, with hashes.
  Exits 1 naming the entry when the range has a gap or an altered entry, 2 on bad arguments.

Options:
  -h, --help   This help.`,
    async run(args) {
      const { positionals, values } = parseArgs({
        args,
        options: {
          from: { type: 'string' },
          to: { type: 'string' },
          out: { type: 'string' },
          format: { type: 'string' },
          full: { type: 'boolean' },
        },
        allowPositionals: true,
        strict: true,
      });
      const { full, ...exportOptions } = values;
      if (positionals.length === 1 && positionals[0] === 'export') {
        if (full !== undefined) {
          console.error('--full goes with tcs audit verify only');
          return 2;
        }
        const { exportAuditTrail } = await import('../runtime/audit-export.js');
        return exportAuditTrail(loadEnv(), exportOptions);
      }
      if (Object.keys(exportOptions).length > 0) {
        console.error('--from, --to, --out and --format go with tcs audit export only');
        return 2;
      }
      if (full !== undefined && positionals[0] !== 'verify') {
        console.error('--full goes with tcs audit verify only');
        return 2;
      }
      if (positionals.length === 1 && positionals[0] === 'archive') {
        const { archiveAuditTrail } = await import('../runtime/audit-archive.js');
        return archiveAuditTrail(loadEnv());
      }
      if (positionals.length !== 1 || positionals[0] !== 'verify') {
        console.error('Usage: tcs audit verify | tcs audit archive | tcs audit export [--from …] [--to …]');
        return 2;
      }
      const { verifyAuditTrail } = await import('../runtime/audit.js');
      return verifyAuditTrail(loadEnv(), { full: full === true });
    },
  },
  {
    name: 'store',
    summary:
      "Create a first start's store before anything serves (`tcs store init`), or accept one the processes refuse (`tcs store adopt --reason TEXT`)",
    help: `Usage: tcs store init
       tcs store adopt --reason TEXT

init: creates the control record of a store that the trading latch on this host (TRADING_LATCH_PATH,
default var/trading-latch.json, one entry per STORE_URL) has never seen, and remembers it there, so
that the API can record a kill or a pause from its first answer and the trading process obeys it from
its first cycle. \`tcs start\` does this by itself before it starts the processes; run it yourself when
you start \`tcs api\` and \`tcs trade\` apart (docker compose runs it as its store-init service). A
store the latch knows is left as it is, whatever it holds: one that lost its data stays a fault (adopt
it, below). Exits 0 when the store is ready (created, or already known), 1 when it cannot be reached.

adopt: the processes refuse a store that is not the one they knew: one that lost its data (empty),
another one at the same place (replaced), or one that went back in time (rolled back). Nothing trades
on it. When that store is what you want (a restore, a new database on purpose), this command accepts
it, audited: a new identity that names the one the trading latch remembers for this STORE_URL, an
epoch above every one seen, and the state killed when the store or the latch was killed, otherwise
paused. Run it where the trading process runs, with its STORE_URL (its latch is read) and
CONTROL_SECRET, then restart the processes that held the old store. The new record is signed with
CONTROL_SECRET: this is also how a control record without a valid MAC (written before MACs, or under
another secret) is accepted again, paused when the latch remembers its identity and epoch, otherwise
killed. Exits 0 when adopted or when there is nothing to adopt.

Options:
  --reason TEXT   Why (adopt: required; recorded in the audit trail).
  -h, --help      This help.`,
    async run(args) {
      const { positionals, values } = parseArgs({
        args,
        options: { reason: { type: 'string' } },
        allowPositionals: true,
        strict: true,
      });
      if (positionals.length === 1 && positionals[0] === 'init' && values.reason === undefined) {
        const { initStoreCommand } = await import('../runtime/store-init.js');
        return initStoreCommand(loadEnv());
      }
      if (positionals.length !== 1 || positionals[0] !== 'adopt') {
        throw new ConfigError('usage: tcs store init | tcs store adopt --reason TEXT');
      }
      const reason = operatorReason(values.reason, 'tcs store adopt')!;
      const { adoptStore } = await import('../runtime/store-adopt.js');
      return adoptStore(loadEnv(), reason);
    },
  },
  {
    name: 'risk',
    summary: 'Reset the drawdown reference after a breach, audited: `tcs risk reset --reason TEXT`',
    help: `Usage: tcs risk reset --reason TEXT [--wait SECONDS]

The drawdown guard (RISK_MAX_DRAWDOWN) measures the fall of NAV from its peak over the last
RISK_DRAWDOWN_WINDOW (default 365d). After a breach, an operator who has reviewed the loss can
reset that peak to the current NAV instead of waiting for the window to pass: new risk is then
judged from today's NAV. The same request as POST /control/risk/reset: an audit entry, then a
command queued in the store (STORE_URL) that the trading process carries out while it runs (a
\`drawdown_reset\` audit entry and event line). Works while the system trades; run it with the
trading process's STORE_URL.

Options:
  --reason TEXT    Why (required; recorded in the audit trail).
  --wait SECONDS   How long to wait for the trading process to carry it out (default 15; 0 = do
                   not wait).
  -h, --help       This help.

Exits 0 when the reset is done (prints the peak before and after), 3 when it is queued but not
carried out within --wait (the trading process runs it when it next claims commands), 2 on bad
arguments.`,
    async run(args) {
      const { positionals, values } = parseArgs({
        args,
        options: { reason: { type: 'string' }, wait: { type: 'string' } },
        allowPositionals: true,
        strict: true,
      });
      if (positionals.length !== 1 || positionals[0] !== 'reset') {
        throw new ConfigError('usage: tcs risk reset --reason TEXT [--wait SECONDS]');
      }
      const reason = operatorReason(values.reason, 'tcs risk reset')!;
      const wait = values.wait === undefined ? 15 : Number(values.wait);
      if (values.wait?.trim() === '' || !Number.isFinite(wait) || wait < 0 || wait > 3600) {
        throw new ConfigError(`--wait must be a number of seconds from 0 to 3600, got "${values.wait}"`);
      }
      const { resetRisk } = await import('../runtime/risk-reset.js');
      return resetRisk(loadEnv(), { reason, waitMs: Math.round(wait * 1000) });
    },
  },
  {
    name: 'data',
    summary: 'Market data: `tcs data check <dir>` validates a data directory, `tcs data download` fills one',
    helpFor: (args) => (args[0] === 'download' ? DATA_DOWNLOAD_HELP : undefined),
    help: `Usage: tcs data <check|download> …

Subcommands:
  check <dir>   Validates a data directory (candles/, funding/, manifest.json; format in
                docs/strategies/data-format.md): every file and every row. Prints the coverage per symbol
                (timeframe, first and last candle, candle count, funding count and range, kind).
                Exits 0 when valid, 1 naming the first error (file and line), 2 on bad arguments.
  download      Downloads candles and funding rates from an exchange's public API (ccxt, no keys)
                into a data directory: --exchange ID --symbols A,B --timeframe 1m --from ISO
                --to ISO --out DIR; resumable. \`tcs data download --help\` for the details.

Options:
  -h, --help    This help.`,
    async run(args) {
      const [sub, ...rest] = args;
      const run = sub === undefined ? undefined : dataSubcommands[sub];
      if (run === undefined) {
        console.error(
          `tcs data: ${sub === undefined ? 'missing subcommand' : `unknown subcommand "${sub}"`}\n${DATA_USAGE}`,
        );
        return 2;
      }
      return run(rest);
    },
  },
  {
    name: 'simulate',
    summary: 'Run a strategy over a period on a simulated clock and write its results and report',
    help: SIMULATE_HELP,
    async run(args) {
      const options = parseSimulateArgs(args);
      // Arguments are checked here first, so a mistake is told without starting a second process.
      const { listenToParent, runSimulationProcess, youngGenerationChosen } =
        await import('../runtime/simulate/simulate-process.js');
      if (!youngGenerationChosen()) return runSimulationProcess(args);
      listenToParent();
      const { runSimulation } = await import('../runtime/simulate/run-simulation.js');
      const result = await runSimulation(loadEnv(), options);
      // On stderr, after the run: a strategy whose signals one reason mostly removed, and the variable.
      for (const line of result.warnings) process.stderr.write(`${line}\n`);
      return result.exitCode;
    },
  },
  ...sweepCommands,
  {
    name: 'strategy',
    summary:
      'tcs strategy new NAME writes a strategy template and its test; tcs strategy check STRATEGY looks for look-ahead and recursive bias',
    help: `Usage: tcs strategy <new|check> …

Subcommands:
  new NAME        Writes a commented strategy template and its test (\`tcs strategy new --help\`).
  check STRATEGY  Replays a strategy on cut data and with more or less history, and reports any
                  signal that read the future or depends on how much history it was given; exit 1
                  on bias (\`tcs strategy check --help\`).

Options:
  -h, --help      This help.`,
    helpFor: (args) => (args[0] === 'new' ? STRATEGY_NEW_HELP : args[0] === 'check' ? STRATEGY_CHECK_HELP : undefined),
    async run(args) {
      const [sub, ...rest] = args;
      if (sub === 'check') {
        const { parseCheckArgs } = await import('../runtime/strategy-check/check-options.js');
        const options = parseCheckArgs(rest);
        const { runStrategyCheckCommand } = await import('../runtime/strategy-check/run-check.js');
        return runStrategyCheckCommand(loadEnv(), options);
      }
      if (sub !== 'new') {
        console.error(
          `tcs strategy: ${sub === undefined ? 'missing subcommand' : `unknown subcommand ${JSON.stringify(sub)}`}\n\nUsage: tcs strategy new NAME [--dir DIR] | tcs strategy check STRATEGY … (tcs strategy <new|check> --help)`,
        );
        return 2;
      }
      const { runStrategyNew } = await import('../runtime/strategy-new.js');
      return runStrategyNew(rest);
    },
  },
  {
    name: 'venue',
    summary:
      'tcs venue check: connect to the live exchange with the configured keys and print the account (changes nothing)',
    help: VENUE_CHECK_HELP,
    async run(args) {
      const [sub, ...rest] = args;
      if (sub !== 'check') {
        console.error(
          `tcs venue: ${sub === undefined ? 'missing subcommand' : `unknown subcommand ${JSON.stringify(sub)}`}\n\n${VENUE_CHECK_HELP}`,
        );
        return 2;
      }
      const { runVenueCheck } = await import('../runtime/venue-check.js');
      return runVenueCheck(rest, loadEnv());
    },
  },
  {
    name: 'keygen',
    summary: 'Print a new URL-safe key from 32 random bytes (for SERVICE_API_KEY, RISK_HMAC_SECRET or CONTROL_SECRET)',
    help: `Usage: tcs keygen

Prints a URL-safe random key made from 32 random bytes (43 characters).

Options:
  -h, --help   This help.`,
    async run(args) {
      parseArgs({ args, options: {}, strict: true });
      return printNewKey();
    },
  },
];
