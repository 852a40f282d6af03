/**
 * The error handler's split between a store failure (503, what was not recorded and why) and a bug
 * (500, no details), and the Redis classifier's redaction: a backend message never carries a password.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { redactorFor } from '../../src/adapters/redis/connection.js';
import { redisFailure } from '../../src/adapters/redis/failures.js';
import { createApi } from '../../src/api/create-api.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import { generateKey } from '../../src/domain/keys.js';
import { StoreFaultError, StoreUnavailableError } from '../../src/ports/store-errors.js';
import { TEST_SYMBOLS } from '../support/api.js';
import { openTestStore } from '../support/stores.js';

describe('store failures vs bugs in the error handler', () => {
  it('a plain error stays a bare 500; store failures are 503 with their code and what was not recorded', async () => {
    const t = await openTestStore('sqlite');
    const app = await createApi({
      store: t.store,
      apiKeys: [generateKey()],
      instruments: parseInstruments(TEST_SYMBOLS),
      defaultMode: 'paper',
      controlRateLimit: 10,
    });
    app.post('/bug', async () => {
      throw new Error('secret detail of a bug');
    });
    app.post('/unavailable', async () => {
      throw new StoreUnavailableError('redis x: Command timed out');
    });
    app.get('/fault', async () => {
      throw new StoreFaultError('empty', 'the control record is missing');
    });
    try {
      const bug = await app.inject({ method: 'POST', url: '/bug' });
      expect(bug.statusCode).toBe(500);
      expect(bug.json()).toEqual({
        statusCode: 500,
        code: 'TCS_INTERNAL',
        error: 'Internal Server Error',
        message: 'internal server error',
      });
      const unavailable = (await app.inject({ method: 'POST', url: '/unavailable' })).json();
      expect(unavailable).toMatchObject({ statusCode: 503, code: 'TCS_STORE_UNAVAILABLE' });
      expect(unavailable.message).toMatch(/^The change was NOT recorded.*Command timed out.*halts on its own/);
      const fault = (await app.inject({ method: 'GET', url: '/fault' })).json();
      expect(fault).toMatchObject({ statusCode: 503, code: 'TCS_STORE_FAULT' });
      expect(fault.message).toMatch(/\(empty\): the control record is missing/);
    } finally {
      await app.close();
      await t.cleanup();
    }
  });

  it('logs a store failure as one line with one msg and the cause under its own key, readable by jq', async () => {
    const t = await openTestStore('sqlite');
    const raw: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void raw.push(line) });
    const app = await createApi(
      {
        store: t.store,
        apiKeys: [generateKey()],
        instruments: parseInstruments(TEST_SYMBOLS),
        defaultMode: 'paper',
        controlRateLimit: 10,
      },
      logger,
    );
    app.post('/unavailable', async () => {
      throw new StoreUnavailableError('redis x: Command timed out');
    });
    try {
      expect((await app.inject({ method: 'POST', url: '/unavailable' })).statusCode).toBe(503);
      const line = raw.find((l) => l.includes('store failure'));
      expect(line).toBeDefined();
      // A second `msg` is a duplicate key: JSON.parse and jq keep the last one, so the cause was lost.
      expect(line!.match(/"msg":/g)).toHaveLength(1);
      expect(JSON.parse(line!)).toMatchObject({
        msg: 'store failure',
        code: 'TCS_STORE_UNAVAILABLE',
        cause: 'redis x: Command timed out',
      });
    } finally {
      await app.close();
      await t.cleanup();
    }
  });

  it('classifies Redis connection and refusal errors as unavailable, with the password masked; others stay bugs', () => {
    const url = 'redis://:hunter2@127.0.0.1:1/0';
    const classify = redisFailure('redis://:***@127.0.0.1:1/0 (prefix tcs:)', redactorFor(url));
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1 (auth hunter2)'), {
      code: 'ECONNREFUSED',
    });
    expect(classify(refused)?.message).toBe(
      'redis redis://:***@127.0.0.1:1/0 (prefix tcs:): connect ECONNREFUSED 127.0.0.1:1 (auth ***)',
    );
    const readOnly = Object.assign(new Error("READONLY You can't write against a read only replica."), {
      name: 'ReplyError',
    });
    expect(classify(readOnly)).toBeInstanceOf(StoreUnavailableError);
    expect(classify(new Error('Command timed out'))).toBeInstanceOf(StoreUnavailableError);
    expect(classify(Object.assign(new Error('ERR wrong number of arguments'), { name: 'ReplyError' }))).toBeNull();
    expect(classify(new SyntaxError('Unexpected token'))).toBeNull();
  });

  it('a MULTI Redis discarded (EXECABORT) is unavailable when a refusal caused it, named in words; a bad command stays a bug', () => {
    const classify = redisFailure('redis://127.0.0.1:1/0 (prefix tcs:)', (m) => m);
    const reply = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });
    const aborted = (...causes: Error[]) =>
      Object.assign(reply('EXECABORT Transaction discarded because of previous errors.'), { previousErrors: causes });
    const oom = reply("OOM command not allowed when used memory > 'maxmemory'.");
    expect(classify(aborted(oom, oom))?.message).toBe(
      'redis redis://127.0.0.1:1/0 (prefix tcs:): a transaction was refused: Redis is out of memory (maxmemory reached ' +
        "with noeviction): it refuses writes until memory is freed or maxmemory raised: OOM command not allowed when used memory > 'maxmemory'.",
    );
    expect(classify(reply('LOADING Redis is loading the dataset in memory'))?.message).toMatch(
      /Redis is loading its data set into memory: LOADING/,
    );
    expect(classify(aborted(reply("ERR unknown command 'FOO'")))).toBeNull();
    expect(classify(reply('EXECABORT Transaction discarded because of previous errors.'))).toBeNull();
  });
});
