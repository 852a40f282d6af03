/**
 * Launches Debian's Chromium (never a downloaded browser) through playwright-core, headless and
 * quiet on the network, for the browser tests. Fails loudly, never skips, when Chromium cannot
 * start: CI installs it (.ci/run).
 */
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `what` names the test in the error when Chromium is missing. */
export async function launchChromium(what: string): Promise<Browser> {
  try {
    return await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  } catch (err) {
    throw new Error(`${what} needs Chromium at ${CHROMIUM} (apt-get install -y chromium): ${(err as Error).message}`);
  }
}
