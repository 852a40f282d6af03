/**
 * Sign-in with the API key. The key is checked with one authenticated read before it is kept (in
 * sessionStorage only); a refused key is said plainly. The input is a password field, so the key is
 * not shown on screen or in a screenshot.
 */
import { useState } from 'preact/hooks';
import { Api } from '../lib/api.js';
import { ApiError } from '../lib/api-errors.js';

export function SignIn({ onSignedIn, notice }: { onSignedIn(key: string): void; notice: string | null }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(notice);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const candidate = key.trim();
    if (!candidate) return setError('Enter the API key (SERVICE_API_KEY in .env).');
    setBusy(true);
    setError(null);
    try {
      await new Api(candidate).get('/control/status');
      onSignedIn(candidate);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'the API could not be reached');
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <h1>Trading Control Service</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        {error ? (
          <p class="message error" role="alert" data-testid="sign-in-error">
            {error}
          </p>
        ) : null}
        <p class="note">The key stays in this tab (sessionStorage) and is sent only in the Authorization header.</p>
      </form>
    </main>
  );
}
