/**
 * Vitest global setup: the tests that spawn `tcs` run the compiled bin (dist/), so bring dist/ up to
 * date first. The build is incremental and skipped outright when no source changed since the last
 * one, so this costs milliseconds on a repeat run and makes `npm test` work from a fresh clone.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const build = fileURLToPath(new URL('../../bin/build.mjs', import.meta.url));
  execFileSync(process.execPath, [build, '--if-stale'], { stdio: 'inherit' });
}
