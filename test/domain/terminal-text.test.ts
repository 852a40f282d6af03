/** terminalSafe: every character a terminal acts on is shown, not obeyed; ordinary text is untouched. */
import { describe, expect, it } from 'vitest';
import { terminalSafe, terminalSafeLines } from '../../src/domain/terminal-text.js';

describe('terminalSafe', () => {
  it('escapes C0, DEL, C1 and the bidi overrides and isolates, visibly', () => {
    expect(terminalSafe('a\x1b[2Jb')).toBe('a\\x1b[2Jb');
    expect(terminalSafe('\x00\x07\x7f\x80\x9b\x9f')).toBe('\\x00\\x07\\x7f\\x80\\x9b\\x9f');
    expect(terminalSafe('x\ny\rz\tw')).toBe('x\\ny\\rz\\tw');
    expect(terminalSafe('\u202a\u202e\u2066\u2069')).toBe('\\u202a\\u202e\\u2066\\u2069');
  });

  it('leaves printable text alone, non-ASCII included', () => {
    const text = 'venue outage — BTCUSDT €5 ★ 日本 "quoted" \\x1b as typed';
    expect(terminalSafe(text)).toBe(text);
    expect(terminalSafe(terminalSafe('\x1b'))).toBe('\\x1b');
  });

  it('terminalSafeLines keeps our newlines and escapes the rest', () => {
    expect(terminalSafeLines('one\x1b\ntwo\r')).toBe('one\\x1b\ntwo\\r');
  });
});
