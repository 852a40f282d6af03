/**
 * `tcs simulate`'s arguments: what it accepts, and a clear refusal (ConfigError, exit 2) for each
 * mistake, before anything is opened or written.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/runtime/config.js';
import { parseSimulateArgs } from '../../../src/runtime/simulate/simulate-options.js';

describe('tcs simulate arguments', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-simargs-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const refused = (args: string[], message: RegExp) => {
    let caught: unknown;
    try {
      parseSimulateArgs(args);
    } catch (err) {
      caught = err;
    }
    expect(caught, args.join(' ')).toBeInstanceOf(ConfigError);
    expect((caught as Error).message).toMatch(message);
  };

  it('reads a synthetic run and a replay', () => {
    const out = join(dir, 'run');
    expect(parseSimulateArgs(['--cycles', '100', '--seed', '7', '--out', out, '--symbols', 'BTCUSDT'])).toMatchObject({
      out,
      cycles: 100,
      seed: 7,
      data: null,
      symbols: 'BTCUSDT',
      quiet: false,
    });
    const replay = parseSimulateArgs([
      '--data',
      dir,
      '--from',
      '2024-01-01',
      '--to',
      '2024-01-02T00:00:00Z',
      '--out',
      out,
    ]);
    expect(replay).toMatchObject({ data: dir, from: Date.UTC(2024, 0, 1), to: Date.UTC(2024, 0, 2), cycles: null });
  });

  it('refuses each mistake with a message that says what to type', () => {
    const out = join(dir, 'run');
    refused(['--cycles', '10'], /needs --out DIR/);
    refused(['--out', out], /needs --cycles N/);
    refused(['--cycles', '0', '--out', out], /--cycles must be a whole number from 1/);
    refused(['--cycles', '1e3', '--out', out], /--cycles must be a whole number/);
    refused(['--cycles', '10', '--seed', '-1', '--out', out], /ambiguous/);
    refused(['--cycles', '10', '--seed=-1', '--out', out], /--seed must be a whole number/);
    refused(['--data', join(dir, 'missing'), '--out', out], /no such directory/);
    refused(['--data', dir, '--seed', '3', '--out', out], /--seed is for the synthetic market/);
    refused(['--cycles', '10', '--from', '2024-01-01T00:00:00', '--out', out], /with a zone/);
    refused(['--cycles', '10', '--from', 'yesterday', '--out', out], /ISO date/);
    refused(['--data', dir, '--from', '2024-02-01', '--to', '2024-01-01', '--out', out], /--to must be after --from/);
    refused(['--cycles', '10', '--out', out, 'extra'], /no positional arguments/);
  });

  it('never writes over another run: --out must be new or empty', () => {
    const used = join(dir, 'used');
    mkdirSync(used);
    writeFileSync(join(used, 'summary.json'), '{}');
    refused(['--cycles', '10', '--out', used], /is not empty/);
    writeFileSync(join(dir, 'file'), '');
    refused(['--cycles', '10', '--out', join(dir, 'file')], /not a directory/);
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect(parseSimulateArgs(['--cycles', '10', '--out', empty]).out).toBe(empty);
  });

  it('an unknown option is refused by the parser', () => {
    expect(() => parseSimulateArgs(['--cycles', '10', '--out', join(dir, 'x'), '--fast'])).toThrow(
      /Unknown option '--fast'/,
    );
  });
});
