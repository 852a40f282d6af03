/** The console line of `tcs start`: a browser-openable address and where the key is, never the key. */
import { describe, expect, it } from 'vitest';
import { apiKeySource, consoleHint } from '../../src/runtime/console-hint.js';

describe('consoleHint', () => {
  it('names the address, the variable and where it was read from', () => {
    expect(consoleHint('http://127.0.0.1:8000', '/srv/tcs/.env', 1)).toBe(
      'console: open http://127.0.0.1:8000/ and sign in with the API key: SERVICE_API_KEY, from /srv/tcs/.env',
    );
  });

  it('turns an all-interfaces address into one a browser on this host can open', () => {
    expect(consoleHint('http://0.0.0.0:8000', 'x', 1)).toContain('open http://127.0.0.1:8000/ ');
    expect(consoleHint('http://[::]:9000', 'x', 1)).toContain('open http://[::1]:9000/ ');
  });

  it('during a rotation says that any of the keys signs in', () => {
    expect(consoleHint('http://127.0.0.1:8000', 'the environment', 2)).toContain(
      'any one of the 2 comma-separated keys of SERVICE_API_KEY, from the environment',
    );
  });
});

describe('apiKeySource', () => {
  it('is the environment when the variable is set there (it wins over .env), else the .env file', () => {
    expect(apiKeySource({ SERVICE_API_KEY: 'k' }, '/a/.env')).toBe('the environment');
    expect(apiKeySource({}, '/a/.env')).toBe('/a/.env');
  });
});
