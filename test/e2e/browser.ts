/**
 * The headless Chromium the end-to-end tests drive through playwright-core (which never downloads one): the
 * system's where it has one, else the one shipped inside the @sparticuz/chromium npm package, so `npm ci && npm
 * test` needs nothing from outside npm. E2E_BROWSER=packaged takes the packaged one even where a system one exists.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const SYSTEM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export async function launchBrowser(): Promise<{ browser: Browser; source: string }> {
  const system = process.env.E2E_BROWSER === 'packaged' ? undefined : SYSTEM.find((p) => existsSync(p));
  let executablePath = system;
  if (!executablePath) {
    // Unpacks the browser (and its fonts) under the temporary folder once, then reuses it.
    const { default: packaged } = await import('@sparticuz/chromium');
    executablePath = await packaged.executablePath();
  }
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--no-zygote',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return { browser, source: system ? `system ${system}` : `packaged ${executablePath}` };
}
