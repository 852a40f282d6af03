/**
 * Read-only routes the operator console needs beyond the spec's surface, behind the same bearer
 * auth: the account the trading process published (GET /control/portfolio), what a deleverage
 * would prepare now (GET /control/deleverage/preview, so the operator sees the reduce-only order
 * before sending it) and the audit chain's verification (GET /reports/audit-chain: the store's
 * window re-hashed and its floor held against the archive, application/archive-seam.ts). None of them
 * changes, audits or queues anything, so none is rate limited.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { checkSeam } from '../../application/archive-seam.js';
import type { SeamCheck } from '../../application/archive-seam.js';
import type { ControlPlane } from '../../application/control-plane.js';
import type { Instrument } from '../../domain/market.js';
import { PORTFOLIO_KEY, TRADING_METRICS_KEY } from '../../domain/runtime-documents.js';
import type { AuditArchive } from '../../ports/audit-archive.js';
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
  /** The audit archive, read-only; null: none configured. */
  archive: AuditArchive | null;
}

const security = [{ bearerAuth: [] }];

export const consoleDataRoutes: FastifyPluginAsyncTypebox<ConsoleDataOptions> = async (
  app,
  { store, plane, instruments, clock, documentFaults, archive },
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
  let verifying: Promise<[ChainVerification, SeamCheck]> | null = null;
  app.get(
    '/reports/audit-chain',
    {
      schema: {
        tags: ['reports'],
        summary: 'Re-hash the audit chain and hold it against its head (as `tcs audit verify`)',
        description:
          'Reads every entry of the store once; on a long chain this takes a while. Concurrent calls share one check. ' +
          'A store trimmed after archiving is held against the archive (`archive`): the archive must hold the last ' +
          'entry trimmed with its hash, else `ok` is false and `first_bad` names it.',
        security,
        response: { 200: AuditVerificationSchema, ...protectedErrors },
      },
    },
    async (request) => {
      const started = monotonicNow(clock);
      verifying ??= Promise.all([store.events.verify(), checkSeam(store.events, archive)]).finally(() => {
        verifying = null;
      });
      const [result, seam] = await verifying;
      if (seam.detail !== undefined)
        request.log.warn(
          { archive: archive?.description ?? null, problem: seam.detail },
          'audit archive unavailable: the audit chain was checked in the store only',
        );
      // A broken seam is history lost below the window: the chain is not intact, whatever the window says.
      const firstBad = !result.ok
        ? result.firstBad
        : seam.status === 'broken'
          ? { seq: seam.floor, reason: seam.problem ?? 'the archive does not link to the store' }
          : null;
      return {
        ok: firstBad === null,
        count: result.count,
        head: firstBad === null && result.ok ? result.head : null,
        first_bad: firstBad,
        checked_at: new Date(clock.now()).toISOString(),
        duration_ms: Math.round(monotonicNow(clock) - started),
        archive: { status: seam.status, floor: seam.floor, problem: seam.problem },
      };
    },
  );
};
