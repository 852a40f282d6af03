/**
 * POST /control/risk/reset: the operator's audited reset of the drawdown reference (issue 20). Not
 * in the spec: an addition, in OpenAPI, behind the same bearer key and control rate limit as the
 * other control POSTs. It queues a `risk_reset` command (src/application/risk-reset-request.ts); the
 * trading process sets the peak NAV to the current NAV when it runs it. Its own file so the control
 * routes stay the spec's.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requestRiskReset } from '../../application/risk-reset-request.js';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';
import { REASON_MAX_LENGTH } from '../../domain/control.js';
import { protectedErrors, tooMany } from '../schemas.js';

export interface RiskRouteOptions {
  store: Store;
  clock: Clock;
  /** Control POSTs per key per minute. */
  rateLimit: number;
}

const RiskResetBody = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: REASON_MAX_LENGTH,
      // Required and not blank: a reset is audited, and "why" is the point of the entry.
      pattern: '\\S',
      description: 'Why the reference is reset (required; recorded in the audit trail)',
      examples: ['reviewed the 11 % loss of the ETH funding trade; strategy parameters fixed'],
    }),
  },
  { additionalProperties: false },
);

const RiskResetResultSchema = Type.Object({
  action: Type.Literal('risk_reset'),
  reason: Type.String(),
  command_id: Type.String({ description: 'Id of the queued command the trading process carries out' }),
  before: Type.Union(
    [
      Type.Object({
        nav: Type.Number(),
        peak_nav: Type.Number(),
        drawdown: Type.Number({ description: '(peak_nav − nav) / peak_nav' }),
      }),
      Type.Null(),
    ],
    { description: 'The drawdown in the last account the trading process published; null before any' },
  ),
  message: Type.String(),
});

export const riskRoutes: FastifyPluginAsyncTypebox<RiskRouteOptions> = async (app, { store, clock, rateLimit }) => {
  // Its own limiter instance, with the control routes' budget per key and minute.
  const throttle = app.rateLimit({ max: rateLimit, timeWindow: '1 minute' });
  app.post(
    '/risk/reset',
    {
      preHandler: throttle,
      schema: {
        tags: ['control'],
        summary: 'Reset the drawdown reference: the peak NAV becomes the current NAV (audited)',
        description:
          'The drawdown guard measures from the highest NAV over RISK_DRAWDOWN_WINDOW (default 365 days). After ' +
          'a breach an operator who has reviewed the loss may reset that peak to the current NAV instead of ' +
          'waiting for the window. Queued for the trading process (it runs it while trading, or when it next ' +
          'starts); the call and the reset are audit entries, the reset a `drawdown_reset` event line. ' +
          'Allowed in every state. Not in the spec: an addition.',
        security: [{ bearerAuth: [] }],
        body: RiskResetBody,
        response: { 200: RiskResetResultSchema, ...tooMany, ...protectedErrors },
      },
    },
    async (request) => requestRiskReset(store, clock, request.body.reason.trim(), request.keyId),
  );
};
