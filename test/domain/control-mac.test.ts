/**
 * The MACs on what crosses the store (src/domain/control-mac.ts): every field a writer could use
 * changes them, one kind's MAC is never another's, another secret never matches, and the reasons
 * for a refusal name CONTROL_SECRET. The command's MAC travels in its stored payload and comes back.
 */
import { describe, expect, it } from 'vitest';
import { commandMac, controlRecordMac, macProblem } from '../../src/domain/control-mac.js';
import { decodeStoredCommand, encodeCommandPayload } from '../../src/domain/commands.js';
import type { ControlRecord } from '../../src/domain/control.js';
import { generateKey } from '../../src/domain/keys.js';

const SECRET = generateKey();
const RECORD: ControlRecord = {
  state: 'paused',
  epoch: 4,
  reason: 'operator pause',
  changed_at: '2026-01-05T12:00:00.000Z',
  store_id: '6f1c3a52-1111-4222-8333-944445555666',
  adopted_from: null,
};
const COMMAND = {
  id: 'c1',
  type: 'flatten',
  version: 1,
  payload: { symbols: ['BTCUSDT'], reason: 'r', actor: 'key_0123456789' },
};

describe('control MACs', () => {
  it('change with every field of the control record', () => {
    const mac = controlRecordMac(SECRET, RECORD);
    expect(mac).toMatch(/^hmac:[0-9a-f]{64}$/);
    expect(macProblem(mac, controlRecordMac(SECRET, { ...RECORD }))).toBeNull();
    const changes: Partial<ControlRecord>[] = [
      { state: 'running' },
      { epoch: 5 },
      { reason: null },
      { changed_at: '2026-01-05T12:00:01.000Z' },
      { store_id: '6f1c3a52-1111-4222-8333-944445555667' },
      { adopted_from: RECORD.store_id },
    ];
    for (const change of changes)
      expect(macProblem(mac, controlRecordMac(SECRET, { ...RECORD, ...change })), JSON.stringify(change)).toMatch(
        /does not match its contents/,
      );
    expect(macProblem(mac, controlRecordMac(generateKey(), RECORD))).toMatch(/another CONTROL_SECRET/);
  });

  it('change with the id, type, version and every payload field of a command, the actor included', () => {
    const mac = commandMac(SECRET, COMMAND);
    for (const other of [
      { ...COMMAND, id: 'c2' },
      { ...COMMAND, type: 'risk_reset' },
      { ...COMMAND, version: 2 },
      { ...COMMAND, payload: { ...COMMAND.payload, actor: 'admin' } },
      { ...COMMAND, payload: { ...COMMAND.payload, symbols: null } },
    ])
      expect(macProblem(mac, commandMac(SECRET, other))).not.toBeNull();
  });

  it('a missing or malformed MAC is refused with the reason', () => {
    const mac = controlRecordMac(SECRET, RECORD);
    for (const given of [undefined, null, ''])
      expect(macProblem(mac, given)).toMatch(/carries no MAC: .*CONTROL_SECRET/);
    for (const given of ['hmac:abc', mac.toUpperCase(), 42]) expect(macProblem(mac, given)).toMatch(/malformed/);
  });

  it('a command MAC travels in the stored payload, beside its version, and comes back', () => {
    const command = {
      id: 'c1',
      type: 'flatten' as const,
      payload: COMMAND.payload,
      enqueued_at: '2026-01-05T12:00:00.000Z',
      mac: commandMac(SECRET, COMMAND),
    };
    const text = encodeCommandPayload(command);
    expect(JSON.parse(text)).toEqual({ ...COMMAND.payload, v: 1, mac: command.mac });
    const state = { status: 'pending' as const, attempts: 0, result: null, completed_at: null };
    const stored = { id: 'c1', type: 'flatten', payload: text, enqueued_at: command.enqueued_at, ...state };
    expect(decodeStoredCommand(stored)).toEqual({ ...command, ...state });
    const { mac: _mac, ...unsigned } = command;
    expect(decodeStoredCommand({ ...stored, payload: encodeCommandPayload(unsigned) })).toEqual({
      ...unsigned,
      ...state,
    });
  });
});
