/**
 * docker-compose.yml's `monitoring` profile: `docker compose --profile monitoring config -q` accepts
 * the file (no engine needed), the profile adds Prometheus, Alertmanager and Grafana and nothing
 * without it does, and every file it mounts from deploy/ exists. Uses `docker compose`, else the
 * standalone `docker-compose`; skips without either outside CI (.ci/run installs Debian's).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTool, skipWithout } from '../support/tools.js';

const ROOT = join(import.meta.dirname, '../..');
const compose = findTool([['docker', 'compose'], ['docker-compose']], ['version']);
const MONITORING = ['alertmanager', 'grafana', 'prometheus'];

describe.skipIf(skipWithout(compose, 'docker compose', 'apt-get install docker-compose'))(
  'docker compose --profile monitoring',
  () => {
    let dir: string;
    // A copy beside a .env of placeholders: the file requires the secrets and an env_file, which a
    // checkout has not; deploy/ is linked so the mounts resolve as in the repository.
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'tcs-compose-'));
      copyFileSync(join(ROOT, 'docker-compose.yml'), join(dir, 'docker-compose.yml'));
      symlinkSync(join(ROOT, 'deploy'), join(dir, 'deploy'));
      writeFileSync(
        join(dir, '.env'),
        'SERVICE_API_KEY=placeholder\nCONTROL_SECRET=placeholder\nRISK_HMAC_SECRET=placeholder\n',
      );
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    function run(...args: string[]): { status: number | null; output: string } {
      if (!compose) throw new Error('docker compose is needed (apt-get install docker-compose)');
      const result = spawnSync(compose[0]!, [...compose.slice(1), ...args], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
      });
      if (result.error) throw result.error;
      return { status: result.status, output: `${result.stdout}${result.stderr}` };
    }

    it('validates with the profile', () => {
      const result = run('--profile', 'monitoring', 'config', '-q');
      expect(result.status, result.output).toBe(0);
    });

    it('lists Prometheus, Alertmanager and Grafana with the profile', () => {
      const services = run('--profile', 'monitoring', 'config', '--services').output.trim().split('\n');
      expect(services).toEqual(expect.arrayContaining(MONITORING));
    });
  },
);

describe('docker-compose.yml monitoring services', () => {
  const text = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');

  // Text, not `config --services`: docker-compose 1.x lists every service whatever the profiles.
  it('starts them with the monitoring profile only, and nothing else with it', () => {
    const blocks = text.split(/^ {2}(?=[a-z][a-z-]*:$)/m).slice(1);
    const profiled = blocks.filter((b) => /^ {4}profiles: \['monitoring'\]$/m.test(b)).map((b) => b.split(':')[0]);
    expect(profiled.sort()).toEqual(MONITORING);
    expect(blocks.filter((b) => /^ {4}profiles:/m.test(b)).length).toBe(MONITORING.length);
  });

  it('mounts only files and folders that exist in deploy/', () => {
    const sources = [...text.matchAll(/- \.\/(deploy\/[^:]+):/g)];
    expect(sources.map((m) => m[1])).toEqual(
      expect.arrayContaining(['deploy/prometheus/alerts.yml', 'deploy/alertmanager/alertmanager.yml']),
    );
    for (const [, source] of sources) expect(existsSync(join(ROOT, source!)), source).toBe(true);
  });
});
