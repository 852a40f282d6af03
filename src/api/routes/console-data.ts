/**
 * Read-only routes the operator console needs beyond the spec's surface, behind the same bearer
 * auth: the account the trading process published (GET /control/portfolio), what a deleverage
 * would prepare now (GET /control/deleverage/preview, so the operator sees the reduce-only order
 * before sending it) and the audit chain's verification (GET /reports/audit-chain). None of them
 * changes, audits or queues anything, so none is rate limited.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ControlPlane } from '../../application/control-plane.js';
import type { Instrument } from '../../domain/market.js';
import { PORTFOLIO_KEY, TRADING_METRICS_KEY } from '../../domain/runtime-documents.js';
import type { Clock } from '../../ports/clock.js';
import { monotonicNow } from '../../ports/clock.js';
import { readDocument } from '../../ports/documents.js';
import type { ChainVerification } from '../../ports/event-store.js';
import type { Store } from '../../ports/store.js';
import { accountView } from '../console/account-view.js';
import type { DocumentFaultLog } from '../document-faults.js';
import { AccountSchema, AuditVerificationSchema, DeleveragePreviewSchema } from '../console/schemas.js';
import { closeSymbolSchema, protectedErrors, reducePctSchema } from '../schemas.js';
import { answer } from './control-failures.js';

export interface ConsoleDataOptions {
  store: Store;
  plane: ControlPlane;
  instruments: readonly Instrument[];
  clock: Clock;
  documentFaults: DocumentFaultLog;
}

const security = [{ bearerAuth: [] }];

export const consoleDataRoutes: FastifyPluginAsyncTypebox<ConsoleDataOptions> = async (
  app,
  { store, plane, instruments, clock, documentFaults },
) => {
  const symbols = instruments.map((i) => i.symbol);

  app.get(
    '/control/portfolio',
    {
      schema: {
        tags: ['control'],
        summary: 'The account the trading process last published: positions, resting orders, NAV, risk figures',
        security,
        response: { 200: AccountSchema, ...protectedErrors },
      },
    },
    async () => {
      // A refused document (malformed, another version) rejects: 503 through the error handler.
      const [portfolio, metrics] = await Promise.all([
        readDocument(store.kv, PORTFOLIO_KEY),
        readDocument(store.kv, TRADING_METRICS_KEY),
      ]);
      documentFaults.accepted(PORTFOLIO_KEY);
      documentFaults.accepted(TRADING_METRICS_KEY);
      return accountView(instruments, portfolio, metrics);
    },
  );

  app.get(
    '/control/deleverage/preview',
    {
      schema: {
        tags: ['control'],
        summary: 'What POST /control/deleverage would prepare now (read-only: nothing queued or audited)',
        description:
          'The same rule and portfolio as POST /control/deleverage; the trading process caps it to the live position.',
        security,
        querystring: Type.Object(
          {
            symbol: closeSymbolSchema(symbols),
            reduce_pct: reducePctSchema(),
          },
          { additionalProperties: false },
        ),
        response: { 200: DeleveragePreviewSchema, ...protectedErrors },
      },
    },
    async (request, reply) =>
      answer(reply, await plane.previewDeleverage(request.query.symbol, request.query.reduce_pct)),
  );

  // A burst of callers (several consoles signing in) shares one re-hash of the chain.
  let verifying: Promise<ChainVerification> | null = null;
  app.get(
    '/reports/audit-chain',
    {
      schema: {
        tags: ['reports'],
        summary: 'Re-hash the audit chain and hold it against its head (as `tcs audit verify`)',
        description: 'Reads every entry once; on a long chain this takes a while. Concurrent calls share one check.',
        security,
        response: { 200: AuditVerificationSchema, ...protectedErrors },
      },
    },
    async () => {
      const started = monotonicNow(clock);
      verifying ??= store.events.verify().finally(() => {
        verifying = null;
      });
      const result = await verifying;
      return {
        ok: result.ok,
        count: result.count,
        head: result.ok ? result.head : null,
        first_bad: result.ok ? null : result.firstBad,
        checked_at: new Date(clock.now()).toISOString(),
        duration_ms: Math.round(monotonicNow(clock) - started),
      };
    },
  );
};
