/**
 * Text from outside (a kill reason, an actor, a symbol, a stored result) made safe to print on a
 * terminal: every character a terminal acts on instead of showing is written out visibly. Without
 * this, whoever can set a reason can clear the operator's screen and print "SYSTEM OK" (ESC, CSI),
 * fake a line (CR, LF), or reverse what follows (bidi overrides). One function, used wherever such
 * text reaches stderr or stdout, so there is one list of what is dangerous.
 */

// C0 (tab and newline included: a reason is one line), DEL, C1, and the bidi embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (NAMED[char] !== undefined) return NAMED[char];
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control character escaped (`\x1b`, `\n`, `\u202e`): safe to print, one line. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** The same for a message of several lines of our own: its newlines stay, everything else is escaped. */
export function terminalSafeLines(text: string): string {
  return text.split('\n').map(terminalSafe).join('\n');
}
