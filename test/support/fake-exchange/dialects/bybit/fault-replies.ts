/**
 * The fake's faults in Bybit v5's words (docs: v5 "Rate Limit Rules" and "Error Codes"):
 * - too many requests is HTTP 200 with retCode 10006 "Too many visits!", and the endpoint's
 *   X-Bapi-Limit / X-Bapi-Limit-Status / X-Bapi-Limit-Reset-Timestamp (epoch ms the limit resets);
 * - an IP past 600 requests in 5 s is banned with HTTP 403 "access too frequent" (no JSON, no
 *   Retry-After; "wait for at least 10 minutes");
 * - a server error refused unprocessed is the gateway's bare 5xx; one carried out first is
 *   retCode 10000 "Server Timeout" (its outcome unknown).
 */
import type { FaultReplies } from '../../fault-replies.js';
import { envelope } from './shapes.js';

export const BYBIT_FAULT_REPLIES: FaultReplies = {
  rateLimited: (retryAfterS, now) => ({
    status: 200,
    headers: {
      'x-bapi-limit': '10',
      'x-bapi-limit-status': '0',
      'x-bapi-limit-reset-timestamp': String(now + retryAfterS * 1000),
    },
    body: envelope({}, now, 10006, 'Too many visits!'),
  }),
  banned: () => ({ status: 403, body: 'access too frequent' }),
  serverError: (status) => ({ status, body: 'Service Unavailable' }),
  unknownOutcome: (_status, now) => ({ status: 200, body: envelope({}, now, 10000, 'Server Timeout') }),
};
