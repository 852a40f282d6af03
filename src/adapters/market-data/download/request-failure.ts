/**
 * Why a request of the downloader failed, in one line a person can act on, and whether trying it
 * again could help. ccxt reports every transport failure as a NetworkError whose message carries
 * the URL and the cause (`binanceusdm GET https://… fetch failed: getaddrinfo ENOTFOUND host`,
 * `… 451 Unavailable For Legal Reasons …`, `… request timed out (10000 ms)`), and it files refusals
 * that will not heal (403, 451) under the same class as a 503: so the message is what is judged.
 */

export interface RequestFailure {
  /** One line: what went wrong, naming the host. */
  reason: string;
  /** Retrying cannot help: the name does not resolve, nothing listens, the exchange refuses us. */
  permanent: boolean;
}

/** Socket and DNS codes that say the host was never reached at all. */
const UNREACHED: Record<string, string> = {
  ENOTFOUND: 'DNS lookup of HOST failed (ENOTFOUND): no such host, or no DNS on this machine',
  EAI_AGAIN: 'DNS lookup of HOST failed (EAI_AGAIN): no DNS server answered; is this machine offline?',
  ECONNREFUSED: 'HOST refused the connection (ECONNREFUSED): nothing listens there',
  EHOSTUNREACH: 'HOST is unreachable (EHOSTUNREACH): no route to it; is this machine offline?',
  ENETUNREACH: 'HOST is unreachable (ENETUNREACH): no network route; is this machine offline?',
};
/** Codes of a connection that was reached, or may be: worth another try. */
const TRANSIENT = ['ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET'];
/** 4xx answers that are about pace, not about us: retried (after Retry-After when given). */
const RETRYABLE_STATUS = new Set([408, 418, 429]);

export function describeRequestFailure(err: unknown): RequestFailure {
  const message = err instanceof Error ? err.message : String(err);
  const host = /\b(?:GET|POST|PUT|DELETE) https?:\/\/([^\s/]+)/.exec(message)?.[1] ?? 'the exchange';
  // The first code this module knows: a message can hold other upper-case words.
  const code = [...message.matchAll(/\b(E[A-Z_]{3,}|UND_ERR_[A-Z_]+|CERT_[A-Z_]+)\b/g)]
    .map((m) => m[1]!)
    .find((c) => UNREACHED[c] !== undefined || TRANSIENT.includes(c) || c.startsWith('CERT_'));
  if (code !== undefined && UNREACHED[code] !== undefined)
    return { reason: UNREACHED[code].replace('HOST', host), permanent: true };
  if (code?.startsWith('CERT_'))
    return { reason: `${host}'s TLS certificate was refused (${code}): a proxy in the way?`, permanent: true };
  if (code !== undefined && TRANSIENT.includes(code))
    return { reason: `the connection to ${host} failed (${code})`, permanent: false };
  const timeout = /request timed out \((\d+) ms\)/.exec(message);
  if (timeout) return { reason: `${host} did not answer within ${Number(timeout[1]) / 1000} s`, permanent: false };
  const http = /\s([1-5]\d\d) ([A-Z][a-zA-Z]*(?: [A-Z][a-zA-Z]*)*)/.exec(message);
  if (http) {
    const status = Number(http[1]);
    const permanent = status >= 400 && status < 500 && !RETRYABLE_STATUS.has(status);
    const refusal =
      status === 403 || status === 451
        ? ': the exchange refuses this address or region (Binance answers 451 from the US); ' +
          'try another --exchange, or a proxy through LIVE_EXCHANGE_URL'
        : '';
    return { reason: `${host} answered HTTP ${status} ${http[2]}${refusal}`, permanent };
  }
  // Anything else (an exchange error code, a malformed answer) as ccxt said it, on one line.
  return { reason: message.replace(/\s+/g, ' ').trim().slice(0, 300), permanent: false };
}
