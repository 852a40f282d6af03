/**
 * The console's SSE parser (console/lib/sse.ts) against the HTML standard's rules: events split at
 * any byte boundary, CRLF/CR/LF line ends (a CRLF split across chunks included), comments, multi-line
 * data, the last event id that persists across events and survives a reconnect, retry, and events
 * without data that are not dispatched.
 */
import { describe, expect, it } from 'vitest';
import { SseParser } from '../../console/lib/sse.js';

const STREAM =
  ': keep-alive\n\n' +
  'id: 42\nevent: control\ndata: {"state":"paused"}\n\n' +
  'event: heartbeat\ndata: {"cycle":7}\n\n' +
  'id: 42.1\nevent: fill\ndata: line one\ndata: line two\n\n';

describe('SseParser', () => {
  it('parses named events, multi-line data and ids, ignoring comments', () => {
    const events = new SseParser().push(STREAM);
    expect(events).toEqual([
      { event: 'control', data: '{"state":"paused"}', id: '42' },
      // No id field: the last one stays in force.
      { event: 'heartbeat', data: '{"cycle":7}', id: '42' },
      { event: 'fill', data: 'line one\nline two', id: '42.1' },
    ]);
  });

  it('gives the same events however the bytes are split', () => {
    const whole = new SseParser().push(STREAM);
    for (let size = 1; size <= 7; size++) {
      const parser = new SseParser();
      const events = [];
      for (let i = 0; i < STREAM.length; i += size) events.push(...parser.push(STREAM.slice(i, i + size)));
      expect(events, `chunks of ${size}`).toEqual(whole);
      expect(parser.lastEventId).toBe('42.1');
    }
  });

  it('accepts CRLF and CR line ends, also a CRLF split between chunks', () => {
    const parser = new SseParser();
    expect(parser.push('event: a\r\ndata: 1\r')).toEqual([]);
    expect(parser.push('\n\r\n')).toEqual([{ event: 'a', data: '1', id: '' }]);
    expect(parser.push('data: 2\r\r')).toEqual([{ event: 'message', data: '2', id: '' }]);
  });

  it('keeps an incomplete event until its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push('event: control\ndata: {"a"')).toEqual([]);
    expect(parser.push(':1}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'control', data: '{"a":1}', id: '' }]);
  });

  it('does not dispatch an event without data, but takes its id (what a resume sends)', () => {
    const parser = new SseParser();
    expect(parser.push('id: 9\nevent: nothing\n\n')).toEqual([]);
    expect(parser.lastEventId).toBe('9');
    expect(parser.push('data: x\n\n')).toEqual([{ event: 'message', data: 'x', id: '9' }]);
  });

  it('starts from the Last-Event-ID of the previous connection', () => {
    const parser = new SseParser('41');
    expect(parser.lastEventId).toBe('41');
    expect(parser.push('event: snapshot\ndata: {}\n\n')).toEqual([{ event: 'snapshot', data: '{}', id: '41' }]);
  });

  it('reads retry, strips one leading space only, ignores unknown fields and ids with NUL', () => {
    const parser = new SseParser();
    const events = parser.push('retry: 1500\nfoo: bar\nid: a\0b\ndata:  two spaces\ndata:none\n\n');
    expect(parser.retryMs).toBe(1500);
    expect(events).toEqual([{ event: 'message', data: ' two spaces\nnone', id: '' }]);
    parser.push('retry: soon\n\n');
    expect(parser.retryMs).toBe(1500);
  });
});
