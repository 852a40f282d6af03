/**
 * Reading an exchange's JSON error answer out of a ccxt error: ccxt's message is `<exchange id>
 * <body>`, the body the exchange's own JSON (each profile names the fields: `errorBody`). Only a
 * field in that JSON counts, never digits elsewhere in the message.
 */

/** The JSON object in a ccxt error's message, or null. */
export function bodyIn(err: unknown): Record<string, unknown> | null {
  const text = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  const body = /\{.*\}/s.exec(text)?.[0];
  if (!body) return null;
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null; // not JSON
  }
}

/** The numeric `field` of the JSON in a ccxt error, or null. */
export function codeInBody(err: unknown, field: string): number | null {
  const value = bodyIn(err)?.[field];
  return typeof value === 'number' ? value : null;
}
