/**
 * Issue 8, finding 3: of ten `tcs trade` started at the same instant on one store, exactly one
 * may trade. Before issue 8 the single-instance check read the last heartbeat and then started, so
 * two processes started together both ran (2 of 3 trials on SQLite): 12 fills in the audit trail,
 * 6 in the saved account, the last writer's account overwriting the other's. Now the trading lease
 * decides: one process runs its cycles, the nine others exit 1 saying another process holds the lease, and
 * what the winner printed, the audit trail and the saved account tell the same story — every order
 * the decisions submitted is in the account, every fill printed is in it with its quantity and fee,
 * each cycle was recorded once — and `tcs audit verify` passes. On SQLite and on Redis.
 *
 * Ten, not the twenty this test started with: the race is between processes that start together,
 * and it showed with two or three; each process costs about half a second of CPU, which the suite's
 * 90 s budget on two cores cannot spend forty times over (the lease contract races twenty takers
 * in-process, test/contracts/trading-lease.contract.ts).
 *
 * Each process runs in its own cwd: each is a first start with its own latch, as ten operators'
 * machines or containers would be; a shared latch would only add a file race to the store's one.
 * No API runs, so CONTROL_PLANE_TIMEOUT=0 (nothing to wait for).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeState, PAPER_STATE_KEY } from '../../src/adapters/paper-venue/persistence.js';
import { exitWithin, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { openTestStore, STORE_KINDS } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';
import { endAll, eventLines, LEASE_REFUSED, scratch, SLOW_BOUND_MS, traderEnv } from './support.js';

const TRADERS = 10;
/** Bound on ten node processes starting together on a loaded 2-core machine. */
const START_BOUND_MS = 2 * SLOW_BOUND_MS;

describe.each(STORE_KINDS)('ten trading processes started at once on %s', (kind) => {
  const dirs = scratch();
  let t: TestStore | undefined;
  const procs: RunningProcess[] = [];

  afterEach(async () => {
    await endAll(procs.splice(0));
    await t?.cleanup();
    t = undefined;
    dirs.removeAll();
  });

  it('exactly one trades, nine exit 1 on the lease; the audit trail and the account agree', async () => {
    t = await openTestStore(kind);
    // Cycles of 0.2 s: the winner's first passive order fills about a dozen cycles in (the synthetic
    // market moves once a cycle), so the test waits for those cycles, not for seconds of them.
    const env = traderEnv(t.url, { CONTROL_PLANE_TIMEOUT: '0', CYCLE_SECONDS: '0.2' });
    const cwds = Array.from({ length: TRADERS }, (_, i) => dirs.dir(`trader${i}`));
    for (const cwd of cwds) procs.push(startTcs(['trade'], env, cwd));

    // Everyone has decided: nine have exited and the last one runs cycles.
    const deadline = Date.now() + START_BOUND_MS;
    const exited = () => procs.filter((p) => p.child.exitCode !== null || p.child.signalCode !== null);
    while (exited().length < TRADERS - 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const losers = exited();
    const running = procs.filter((p) => !losers.includes(p));
    expect(losers.length, running.map((p) => p.stderr().slice(-500)).join('\n---\n')).toBe(TRADERS - 1);
    expect(running).toHaveLength(1);
    for (const loser of losers) {
      expect(loser.child.exitCode, loser.stderr().slice(-2000)).toBe(1);
      expect(loser.stderr()).toMatch(LEASE_REFUSED);
      expect(loser.stdout()).not.toMatch(/"event":"(cycle_start|order_submitted|order_filled)"/);
    }

    // The winner trades until it has fills, and still holds the store.
    const winner = running[0]!;
    await winner.waitFor(/"event":"cycle_start"/, 60_000);
    await winner.waitFor(/"event":"order_filled"/, 90_000);
    expect(winner.child.exitCode).toBeNull();
    winner.child.kill('SIGTERM'); // a clean stop: the current step finishes and is recorded
    expect((await exitWithin(winner, SLOW_BOUND_MS)).code).toBe(0);
    for (const loser of losers) expect(loser.child.exitCode).toBe(1);

    await expectAuditAgreesWithAccount(t, eventLines(winner));

    const verify = startTcs(['audit', 'verify'], { STORE_URL: t.url }, cwds[0]);
    procs.push(verify);
    expect((await exitWithin(verify, 60_000)).code, verify.stderr()).toBe(0);
    expect(verify.stdout()).toMatch(/audit trail intact/);
  }, 300_000);
});

/**
 * The winner's event lines, the audit trail's decisions and the saved paper account describe the
 * same orders and fills: nothing written by a second trader, nothing lost by an overwrite.
 */
async function expectAuditAgreesWithAccount(t: TestStore, lines: Array<{ event: string } & Record<string, unknown>>) {
  const account = decodeState(await t.store.kv.get(PAPER_STATE_KEY));
  const accountOrders = [...account.openOrders.values(), ...account.terminalOrders.values()];

  const decisions = await t.store.events.query({ kind: 'decision', limit: 1000 });
  const cycles = decisions.map((d) => (d.body as { cycle: number }).cycle);
  expect(new Set(cycles).size, `cycles recorded twice: ${cycles.join(',')}`).toBe(cycles.length);
  const submissions = decisions.flatMap(
    (d) =>
      (d.body as { submissions: Array<{ clientOrderId: string; status: string; venueStatus?: string }> }).submissions,
  );
  const submittedInAudit = submissions.filter((s) => s.status === 'submitted');
  expect(submittedInAudit.length).toBeGreaterThan(0);
  const ids = submittedInAudit.map((s) => s.clientOrderId);
  expect(new Set(ids).size).toBe(ids.length);
  expect(new Set(ids)).toEqual(new Set(accountOrders.map((o) => o.clientOrderId)));
  // The winner printed one order_submitted per order the venue took (and order_rejected otherwise).
  const accepted = submittedInAudit.filter((s) => s.venueStatus !== 'rejected').length;
  expect(lines.filter((l) => l.event === 'order_submitted')).toHaveLength(accepted);

  // Every fill the winner printed is in the account (quantity per order, fees in total), and no other.
  const fills = lines.filter((l) => l.event === 'order_filled') as unknown as Array<{
    client_order_id: string;
    qty: number;
    fee: number;
  }>;
  expect(fills.length).toBeGreaterThan(0);
  const printed = new Map<string, number>();
  for (const fill of fills) printed.set(fill.client_order_id, (printed.get(fill.client_order_id) ?? 0) + fill.qty);
  const saved = new Map(accountOrders.filter((o) => o.filledQty > 0).map((o) => [o.clientOrderId, o.filledQty]));
  expect([...saved.keys()].sort()).toEqual([...printed.keys()].sort());
  for (const [id, qty] of printed) expect(saved.get(id), id).toBeCloseTo(qty, 9);
  expect(account.feesPaid).toBeCloseTo(
    fills.reduce((sum, f) => sum + f.fee, 0),
    9,
  );
}
