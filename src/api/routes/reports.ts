/**
 * /reports routes: the coordinator's decision log from the hash-chained event store, newest first,
 * continued into the audit archive below the store's floor (application/audit-pages.ts), every fill
 * the store's window records (at submission, in decisions; between cycles, in `order_filled`
 * entries), and the notifications its newest entries carry (what `tcs notify` sends, by the same
 * selection).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { queryAcross } from '../../application/audit-pages.js';
import type { ArchivePart, AuditPage } from '../../application/audit-pages.js';
import type { AuditArchive } from '../../ports/audit-archive.js';
import type { EventStore } from '../../ports/event-store.js';
import { selectNotifications } from '../../domain/notifications/select.js';
import { fillsOfEntry } from '../events/entry-fills.js';
import {
  DecisionEntrySchema,
  DecisionsQuery,
  FillSchema,
  NotificationSchema,
  NotificationsQuery,
  protectedErrors,
} from '../schemas.js';

/** Says on every page whether the archive was read for it (audit-pages.ts ArchivePart). */
const ARCHIVE_HEADER = 'x-audit-archive';

/** The header of a page made of `parts` (the worst of them), and the log line when the archive was out of reach. */
function tellArchive(request: FastifyRequest, reply: FastifyReply, parts: readonly AuditPage[], what: string): void {
  const rank: Record<ArchivePart, number> = { unused: 0, read: 1, unavailable: 2 };
  const worst = parts.reduce((w, p) => (rank[p.archive] > rank[w.archive] ? p : w));
  void reply.header(ARCHIVE_HEADER, worst.archive);
  if (worst.archiveProblem !== undefined)
    request.log.warn(
      { problem: worst.archiveProblem },
      `audit archive unavailable: ${what} answered from the store only`,
    );
}

export const reportRoutes: FastifyPluginAsyncTypebox<{ events: EventStore; archive: AuditArchive | null }> = async (
  app,
  { events, archive },
) => {
  app.get(
    '/decisions',
    {
      schema: {
        tags: ['reports'],
        summary: 'Recent decision log entries, newest first',
        description:
          'Page with `before` = the smallest `seq` of the previous page. `since` inclusive, `until` exclusive. ' +
          'Pages run across the audit archive (AUDIT_ARCHIVE_URL) and the store as one sequence: entries ' +
          'archived and trimmed from the store are read from the archive. The `X-Audit-Archive` header says ' +
          'where the page came from: `unused` (the store alone), `read` (the archive too), `unavailable` ' +
          "(the page reaches below the store's window but the archive could not be read: it holds only " +
          "the store's entries, and older pages are empty until the archive is back; the reason is in the " +
          'API log).',
        security: [{ bearerAuth: [] }],
        querystring: DecisionsQuery,
        response: { 200: Type.Array(DecisionEntrySchema), ...protectedErrors },
      },
    },
    async (request, reply) => {
      const { limit, before, symbol, since, until } = request.query;
      const page = await queryAcross(events, archive, { kind: 'decision', limit, before, symbol, since, until });
      void reply.header(ARCHIVE_HEADER, page.archive);
      if (page.archiveProblem !== undefined)
        request.log.warn(
          { archive: archive?.description ?? null, problem: page.archiveProblem },
          'audit archive unavailable: decisions answered from the store only',
        );
      return page.entries.map((e) => ({
        seq: e.seq,
        at: e.at,
        symbol: e.symbol,
        hash: e.hash,
        prev_hash: e.prev_hash,
        decision: e.body,
      }));
    },
  );

  app.get(
    '/fills',
    {
      schema: {
        tags: ['reports'],
        summary: 'Every fill the audit trail records, newest first',
        description:
          'Fills at submission (from decisions) and between cycles (`order_filled` entries: a resting order, ' +
          'an exchange stop, a fill found by a cancel), from the newest `limit` entries of those two kinds. ' +
          'Page with `before` = the smallest `seq` of the previous page. `since` inclusive, `until` exclusive. ' +
          'Pages run across the audit archive and the store as /reports/decisions does (`X-Audit-Archive`).',
        security: [{ bearerAuth: [] }],
        querystring: DecisionsQuery,
        response: { 200: Type.Array(FillSchema), ...protectedErrors },
      },
    },
    async (request, reply) => {
      const { limit, before, symbol, since, until } = request.query;
      const filter = { limit, before, symbol, since, until };
      const [decisions, between] = await Promise.all([
        queryAcross(events, archive, { kind: 'decision', ...filter }),
        queryAcross(events, archive, { kind: 'order_filled', ...filter }),
      ]);
      tellArchive(request, reply, [decisions, between], 'fills');
      // The newest `limit` entries of the two kinds together, newest first.
      const entries = [...decisions.entries, ...between.entries].sort((a, b) => b.seq - a.seq).slice(0, limit);
      // A decision's fills in submission order after its entry, newest entry first.
      return entries.flatMap((e) => fillsOfEntry(e).map((fill) => ({ seq: e.seq, at: e.at, ...fill })));
    },
  );

  app.get(
    '/notifications',
    {
      schema: {
        tags: ['reports'],
        summary: 'The notifications the newest audit entries carry, newest first',
        description:
          'What `tcs notify` sends (fills, kills, control changes, kill resets, halts ended, risk state ' +
          'changes, liquidations, agent errors), made from the newest `limit` audit entries of any kind by ' +
          'the same selection; read-only (nothing is delivered or marked). Page with `before` = the smallest ' +
          '`seq` of the previous page. Pages run across the audit archive and the store as /reports/decisions ' +
          'does (`X-Audit-Archive`).',
        security: [{ bearerAuth: [] }],
        querystring: NotificationsQuery,
        response: { 200: Type.Array(NotificationSchema), ...protectedErrors },
      },
    },
    async (request, reply) => {
      const { limit, before } = request.query;
      const page = await queryAcross(events, archive, { limit, before });
      tellArchive(request, reply, [page], 'notifications');
      const entries = page.entries;
      // The notifier's own fields only: `data` (the entry's body) stays in the audit trail.
      return entries.flatMap((e) => selectNotifications(e).map(({ data: _data, ...n }) => n));
    },
  );
};
