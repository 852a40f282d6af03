/**
 * Opens the console served at `baseUrl` and signs in with `key` the way an operator does (the key
 * field and the sign-in button), then waits for the state banner to show a state.
 */
import type { Page } from 'playwright-core';

export async function signInToConsole(page: Page, baseUrl: string, key: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel(/api key/i).fill(key);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.waitForSelector('[data-testid="state"]:not([data-epoch=""])', { timeout: 10_000 });
}
