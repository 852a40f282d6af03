/**
 * The fake's faults in Bitget's words (Bitget API docs, "Rate Limit" and "Error code"):
 * - too many requests is HTTP 429 with `{"code":"429","msg":"Too Many Requests"}` (ccxt:
 *   DDoSProtection), and a Retry-After (the fake's assumption: Bitget documents none);
 * - Bitget documents no IP ban: the fake answers one as a proxy before Bitget's gateway would,
 *   HTTP 418 with Retry-After (as for OKX), which the profile reads as HTTP says;
 * - a server error refused unprocessed is 40200 "Server upgrade"; one carried out first is 40015
 *   "System is abnormal" (its outcome unknown).
 */
import type { FaultReplies } from '../../fault-replies.js';
import { failure } from './shapes.js';

export const BITGET_FAULT_REPLIES: FaultReplies = {
  rateLimited: (retryAfterS, now) => ({
    status: 429,
    headers: { 'retry-after': String(retryAfterS) },
    body: failure(429, 'Too Many Requests', now),
  }),
  banned: (until, retryAfterS) => ({
    status: 418,
    headers: { 'retry-after': String(retryAfterS) },
    body: `IP banned until ${until}`,
  }),
  serverError: (status, now) => ({ status, body: failure(40200, 'Server upgrade, please try again later', now) }),
  unknownOutcome: (status, now) => ({
    status,
    body: failure(40015, 'System is abnormal, please try again later', now),
  }),
};
