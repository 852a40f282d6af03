/**
 * Every package the lockfile installs must run on the oldest Node the project supports
 * (package.json `engines.node`, >=20.19). A dependency that wants a newer Node makes each `npm ci`
 * warn EBADENGINE and may use APIs Node 20 lacks; package.json `overrides` pin such transitive
 * packages to releases that still support Node 20.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import semver from 'semver';

interface LockEntry {
  version?: string;
  engines?: { node?: string };
}

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
};
const project = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};

describe('engines', () => {
  // The floor stated in package.json, as a version: ">=20.19" → 20.19.0.
  const oldest = semver.minVersion(project.engines.node)!.version;

  it('the project supports Node 20.19', () => {
    expect(oldest).toBe('20.19.0');
  });

  it('every package in package-lock.json admits the oldest supported Node', () => {
    expect(lock.lockfileVersion).toBeGreaterThanOrEqual(2); // v2+ records each package's engines
    const withRange = Object.entries(lock.packages).filter(([path, e]) => path !== '' && e.engines?.node);
    expect(withRange.length).toBeGreaterThan(50); // the lockfile really carries engines
    const refusing = withRange
      .filter(([, e]) => !semver.satisfies(oldest, e.engines!.node!, { includePrerelease: true }))
      .map(([path, e]) => `${path.replace(/^.*node_modules\//, '')}@${e.version} wants node ${e.engines!.node}`);
    expect(refusing).toEqual([]);
  });
});
