/**
 * The `tcs` command: `tcs <command> [options]`, `--help` on each. `npm start` runs `tcs start`.
 */
import { commands } from './commands.js';
import { ConfigError } from '../runtime/config.js';
import { tellSupervisor } from '../runtime/supervisor-channel.js';
import { tellOperator } from '../runtime/tell-operator.js';

const USAGE = `Usage: tcs <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(14)}${c.summary}`).join('\n')}

Run \`tcs <command> --help\` for a command's options.
Configuration comes from the environment and .env (see .env.example).
In a checkout, run it as \`node bin/tcs.mjs <command>\`: it answers at once, while \`npx tcs\` first
has npm read every installed package (seconds per call).`;

// Under the supervisor there is an IPC channel; it must never by itself keep this process alive.
process.channel?.unref();

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`tcs: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.helpFor?.(rest) ?? command.help);
    return 0;
  }
  return command.run(rest);
}

/** Says why on stderr and, under `tcs start`, to the supervisor too (whose last line names it), then exits. */
function fail(code: number, message: string, label = ''): void {
  tellOperator(`${label}${message}`);
  void tellSupervisor({ type: 'exiting', code, message }).then(() => process.exit(code));
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== -1) process.exitCode = code; // -1: a long-running command that exits by itself
  },
  (err: unknown) => {
    if (err instanceof ConfigError || (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      fail(2, (err as Error).message);
      return;
    }
    fail(1, (err as Error).message, 'failed: ');
  },
);
