import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/**
 * Browser tests drive the system's Chromium (Debian's `chromium` package); Playwright never
 * downloads a browser here. CHROMIUM_PATH points at another binary.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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

/** CI is "set" unless empty, "false" or "0". */
function inCi(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/**
 * `describe` for tests that need Chromium. Without it they fail in CI (a missing browser must
 * not turn into a green build) and are skipped with a warning elsewhere, so that `npm test` on a
 * machine without Chromium still runs everything else.
 */
export function describeWithChromium(name: string, body: () => void): void {
  if (existsSync(CHROMIUM_PATH)) {
    describe(name, body);
    return;
  }
  const install = 'apt-get install -y --no-install-recommends chromium';
  if (inCi()) {
    describe(name, () => {
      it('needs Chromium', () => {
        throw new Error(`${CHROMIUM_PATH} is missing and CI is set: install it (${install})`);
      });
    });
    return;
  }
  console.warn(
    `SKIPPED "${name}": no Chromium at ${CHROMIUM_PATH}. Install it (${install}) or set ` +
      'CHROMIUM_PATH to run the browser tests; with CI set they fail instead.',
  );
  describe.skip(name, body);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 30_000,
  });
}
