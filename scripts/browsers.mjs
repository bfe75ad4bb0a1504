// The two browser engines the tests and the benchmark run in, and how to start each one headless
// on a machine with no outside network: Debian's Chromium (over CDP) and Debian's Firefox ESR
// (over WebDriver BiDi), both driven by puppeteer-core. Everything engine-specific about
// *launching* lives here; wasm_tests/browser/browser.mjs adds what the test suites need on top.
//
//   launchEngine('chromium' | 'firefox', { downloadPath, colorScheme })  →  { engine, browser, context, close() }
// `context` is a fresh browser context (no cookies, storage or cache from anything else) whose
// downloads land in `downloadPath` when one is given. `colorScheme: 'dark'` starts Firefox with
// pages told prefers-color-scheme: dark (a preference; its WebDriver BiDi cannot emulate media
// features); Chromium takes it per page over CDP (wasm_tests/browser/browser.mjs).
// CHROMIUM_PATH / FIREFOX_PATH override the Debian binaries. puppeteer-core is imported only when
// a browser starts, so scripts/test.mjs can read the engine list before scripts/setup.sh has
// installed the npm packages (a fresh clone has none).
import { existsSync } from 'node:fs';

// Firefox preferences that keep it from reaching the network on its own (the counterpart of
// Chromium's --disable-background-networking): puppeteer's own profile already turns off
// updates, safe-browsing lists, remote settings and data reporting; these close the rest.
const quietFirefox = {
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'captivedetect.canonicalURL': '',
  'toolkit.telemetry.enabled': false,
  'toolkit.telemetry.unified': false,
  'toolkit.telemetry.archive.enabled': false,
  'toolkit.telemetry.server': '',
  'app.update.auto': false,
  'app.update.enabled': false,
  'browser.safebrowsing.downloads.remote.enabled': false,
  'browser.safebrowsing.provider.google4.updateURL': '',
  'browser.safebrowsing.provider.mozilla.updateURL': '',
  'extensions.blocklist.enabled': false,
  'extensions.systemAddon.update.enabled': false,
  'browser.region.network.url': '',
  'browser.region.update.enabled': false,
  'browser.ping-centre.telemetry': false,
  'browser.newtabpage.activity-stream.feeds.telemetry': false,
  'browser.topsites.contile.enabled': false,
  'dom.push.connection.enabled': false,
  'geo.provider.network.url': '',
  'network.trr.mode': 5,               // no DNS over HTTPS
  'network.dns.disablePrefetch': true,
  'network.prefetch-next': false,
  'network.predictor.enabled': false,
  'security.OCSP.enabled': 0,
  // A download starts without asking where to save it.
  'browser.download.useDownloadDir': true,
  'browser.download.always_ask_before_handling_new_types': false,
};

// Chromium flags for a root user on a machine with no outside network. Even with
// --disable-background-networking Chromium looks up autofill, update and sign-in hosts; the
// resolver rule answers every name but the loopback address with "not found" without asking DNS.
const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--no-first-run', '--disable-sync', '--disable-quic', '--disable-dev-shm-usage',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];

export const engines = {
  chromium: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    options: { browser: 'chrome', protocol: 'cdp', args: chromiumArgs },
  },
  firefox: {
    executablePath: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
    options: {
      browser: 'firefox', protocol: 'webDriverBiDi', extraPrefsFirefox: quietFirefox,
      // Release builds ignore services.settings.server (puppeteer points it at a data: URL) unless
      // MOZ_REMOTE_SETTINGS_DEVTOOLS is set; without it Firefox looks up the real server's name.
      env: { ...process.env, MOZ_HEADLESS: '1', MOZ_CRASHREPORTER_DISABLE: '1', MOZ_REMOTE_SETTINGS_DEVTOOLS: '1' },
    },
  },
};
export const engineNames = Object.keys(engines);

export async function launchEngine(engine, { downloadPath, colorScheme } = {}) {
  const spec = engines[engine];
  if (!spec) throw new Error(`unknown browser engine '${engine}'; allowed: ${engineNames.join(', ')}`);
  if (!existsSync(spec.executablePath)) throw new Error(`${engine}: ${spec.executablePath} not found (scripts/setup.sh installs it)`);
  const { default: puppeteer } = await import('puppeteer-core');
  // puppeteer starts each launch with a fresh temporary profile and deletes it on close.
  const browser = await puppeteer.launch({
    executablePath: spec.executablePath, headless: true, defaultViewport: { width: 1280, height: 720 },
    protocolTimeout: 600_000, ...spec.options,
    // 0: content is told dark, 1: light (Firefox's layout.css.prefers-color-scheme.content-override).
    ...(engine === 'firefox' && colorScheme
      ? { extraPrefsFirefox: { ...spec.options.extraPrefsFirefox, 'layout.css.prefers-color-scheme.content-override': colorScheme === 'dark' ? 0 : 1 } }
      : {}),
  });
  try {
    const context = await browser.createBrowserContext(downloadPath ? { downloadBehavior: { policy: 'allow', downloadPath } } : {});
    return { engine, browser, context, close: () => browser.close() };
  } catch (e) {
    await browser.close().catch(() => {});
    throw e;
  }
}
