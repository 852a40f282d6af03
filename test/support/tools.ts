/**
 * External tools a test drives (promtool, docker compose), looked up on the PATH. A test skips, saying
 * why, when its tool is missing on a developer's machine; under CI=true it runs and fails instead,
 * since .ci/run installs every tool the suite needs.
 */
import { spawnSync } from 'node:child_process';

const IN_CI = process.env.CI === 'true';

/** The first candidate command (argv prefix) that answers `probe` with exit 0, else null. */
export function findTool(candidates: readonly (readonly string[])[], probe: readonly string[]): string[] | null {
  for (const argv of candidates) {
    const run = spawnSync(argv[0]!, [...argv.slice(1), ...probe], { encoding: 'utf8', timeout: 15_000 });
    if (!run.error && run.status === 0) return [...argv];
  }
  return null;
}

/** Whether to skip: only when the tool is missing outside CI, with a message saying how to get it. */
export function skipWithout(tool: string[] | null, name: string, install: string): boolean {
  if (tool !== null || IN_CI) return false;
  console.warn(`skipped: ${name} is not installed (${install}); under CI=true this fails instead`);
  return true;
}
