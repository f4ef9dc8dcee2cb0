import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium, which .ci/run installs. */
export const CHROMIUM = '/usr/bin/chromium';

/** Chromium flags: headless, and nothing reaching the network on its own. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-proxy-server',
];

/** The browser of a browser test. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}
