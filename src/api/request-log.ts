/**
 * The API's request lines. Fastify writes 'incoming request' when a request is routed and 'request
 * completed' when it is answered; a flood of refused requests would write both for every one
 * (issue 18, finding 6). This log controller keeps both lines for every request that gets past the
 * gate, and gives the refused ones (a 401 from auth.ts, an unknown route) to a RefusalTally, which
 * writes one line per window instead. Whether auth refuses is known only after the onRequest hooks
 * ran, so the 'incoming request' line waits until then: `requestLogPlugin` writes it from a
 * preParsing hook (which runs right after them), and a request answered before that gets it at
 * completion, just before its 'request completed'. Give the same RequestLog to apiServerOptions
 * (server option `logController`) and to the API plugin (its hook, logger and close).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import fp from 'fastify-plugin';
import { RefusalTally } from './refusal-tally.js';
import type { RefusalReason, RefusalTallyOptions } from './refusal-tally.js';

export type RequestLogOptions = RefusalTallyOptions;

export class RequestLog extends LogController {
  readonly tally: RefusalTally;
  /** Requests whose 'incoming request' line is not written yet (they have not passed the gate). */
  private readonly waiting = new WeakMap<FastifyRequest, FastifyReply>();

  constructor(options: RequestLogOptions = {}) {
    super();
    this.tally = new RefusalTally(options);
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (request.is404) return; // refused: counted when answered
    this.waiting.set(request, reply);
  }

  /** The request passed its onRequest hooks (authentication): its 'incoming request' line now. */
  passedGate(request: FastifyRequest): void {
    const reply = this.waiting.get(request);
    if (reply === undefined) return;
    this.waiting.delete(request);
    super.incomingRequest(request, reply);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const refusal = refusalOf(request);
    if (refusal !== null) {
      this.waiting.delete(request);
      this.tally.count(refusal, request.ip);
      return;
    }
    this.passedGate(request);
    super.requestCompleted(error, request, reply);
  }
}

function refusalOf(request: FastifyRequest): RefusalReason | null {
  if (request.is404) return 'not_found';
  return request.authRefusal ?? null;
}

/** Wires a RequestLog into the API instance: the gate hook, the tally's logger, its last window on close. */
export const requestLogPlugin = fp<{ requestLog: RequestLog }>(
  async (app, { requestLog }) => {
    requestLog.tally.attach(app.log);
    app.addHook('preParsing', (request, _reply, payload, done) => {
      requestLog.passedGate(request);
      done(null, payload);
    });
    app.addHook('onClose', async () => requestLog.tally.close());
  },
  { name: 'tcs-request-log', fastify: '5.x' },
);
