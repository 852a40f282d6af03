/**
 * `tcs risk reset` as an operator runs it: the compiled `tcs` in its own process, writing to the
 * same store as a trading system that is trading (here in the test's process, on a real SQLite file
 * and on Redis). The reset is queued, carried out by the trading process while it runs, audited and
 * printed; with no trading process it stays queued (exit 3); bad arguments change nothing (exit 2).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';
import { openTestStore, STORE_KINDS } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';
import { openTestTrading } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';

describe.each(STORE_KINDS)('tcs risk reset on %s', (kind) => {
  let t: TestTrading | undefined;
  let store: TestStore | undefined;
  afterEach(async () => {
    await t?.close();
    await store?.cleanup();
    t = undefined;
    store = undefined;
  });

  it('is carried out by the running trading process: the peak becomes the NAV, audited and printed', async () => {
    // Full-size market entries pay fee and spread: NAV is below its peak after the first cycle.
    t = await openTestTrading(kind, { ORDER_STYLE: 'market', RISK_FRACTION: '1' });
    await t.advance(60_000);
    const before = await t.system.venue.account();
    expect(before.peakNav).toBeGreaterThan(before.nav);

    const cli = startTcs(['risk', 'reset', '--reason', 'reviewed the loss', '--wait', '20'], { STORE_URL: t.url });
    // The trading process claims commands when the store tells it; the test drives that by hand.
    let exited: { code: number | null } | null = null;
    void cli.exited.then((e) => (exited = e));
    while (exited === null) {
      await t.system.pumpCommands();
      await t.system.settled();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(exited, cli.stderr()).toEqual({ code: 0, signal: null });
    expect(cli.stdout()).toMatch(/^risk reset queued as risk-reset-\S+ \(last published: NAV /m);
    expect(cli.stdout()).toMatch(/drawdown reference reset: peak NAV [\d.]+ → [\d.]+ \(drawdown was 0\.\d\d %\)/);

    const after = await t.system.venue.account();
    expect(after.peakNav).toBe(after.nav);
    const [line] = t.events('drawdown_reset');
    expect(line).toMatchObject({ reason: 'reviewed the loss', actor: expect.stringMatching(/^cli/) });
    const [call] = await t.store.events.query({ kind: 'control_call', limit: 1 });
    expect(call?.body).toMatchObject({ call: 'risk_reset', reason: 'reviewed the loss', command_id: line!.command_id });
    const [reset] = await t.store.events.query({ kind: 'drawdown_reset', limit: 1 });
    expect(reset?.body).toMatchObject({ previous_peak_nav: before.peakNav, command_id: line!.command_id });
  });

  it('stays queued when no trading process runs (exit 3), for the next one to carry out', async () => {
    store = await openTestStore(kind);
    const cli = startTcs(['risk', 'reset', '--reason', 'after the outage', '--wait', '0'], { STORE_URL: store.url });
    expect(await exitWithin(cli, 20_000)).toEqual({ code: 3, signal: null });
    expect(cli.stderr()).toMatch(/not carried out within 0 s: is the trading process running\?/);
    const id = /queued as (risk-reset-\S+)/.exec(cli.stdout())![1]!;
    expect(await store.store.commands.get(id)).toMatchObject({ status: 'pending', type: 'risk_reset' });
  });
});

describe('tcs risk reset: bad arguments', () => {
  let store: TestStore | undefined;
  afterEach(async () => {
    await store?.cleanup();
    store = undefined;
  });

  it.each([
    [['risk', 'reset'], /needs --reason TEXT/],
    [['risk', 'reset', '--reason', '   '], /needs --reason TEXT/],
    [['risk', 'reset', '--reason', 'x', '--wait', 'soon'], /--wait must be a number of seconds/],
    [['risk', 'reset', '--reason', 'x', '--wait=-1'], /--wait must be a number of seconds/],
    [['risk', 'reset', '--reason', 'x', '--force'], /Unknown option '--force'/],
    [['risk', 'undo', '--reason', 'x'], /usage: tcs risk reset --reason TEXT/],
    [['risk'], /usage: tcs risk reset --reason TEXT/],
  ])('%j exits 2 and queues nothing', async (args, message) => {
    store = await openTestStore('sqlite');
    const cli = startTcs(args, { STORE_URL: store.url });
    expect(await exitWithin(cli, 20_000)).toEqual({ code: 2, signal: null });
    expect(cli.stderr()).toMatch(message);
    expect(await store.store.events.query({ limit: 10 })).toEqual([]);
    expect(await store.store.commands.claim('peek', { max: 10, leaseMs: 1, now: 0 })).toEqual([]);
  });

  it('--help explains the reset, its options and exit codes', async () => {
    const cli = startTcs(['risk', 'reset', '--help'], {});
    expect(await exitWithin(cli, 20_000)).toEqual({ code: 0, signal: null });
    expect(cli.stdout()).toMatch(/Usage: tcs risk reset --reason TEXT \[--wait SECONDS\]/);
    expect(cli.stdout()).toMatch(/RISK_DRAWDOWN_WINDOW/);
    expect(cli.stdout()).toMatch(/Exits 0 when the reset is done/);
  });
});
