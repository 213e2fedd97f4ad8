// Real-browser support for hosted-page tests, a subpath of its own (@sesame/testing/browser) so that unit
// tests importing @sesame/testing never load playwright-core.
export { axeViolations, describeViolations, isBlocking, type AxeViolation } from './axe';
export {
  checkPage,
  screenshotDir,
  screenshotName,
  type CheckPageOptions,
  type CheckPageResult,
} from './check-page';
export { chromiumArgs, desktopContext, launchBrowser, phoneContext, type ContextOptions } from './launch';
export { readQrFromScreenshot } from './read-qr';
export { pageTransfers, type Transfer } from './traffic';
export {
  virtualAuthenticator,
  type VirtualAuthenticator,
  type VirtualCredential,
} from './virtual-authenticator';
// Tests name these types through the harness, so only @sesame/testing declares playwright-core.
export type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
