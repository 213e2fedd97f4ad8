import type { BrowserContext, Page, Request } from 'playwright-core';

/** One resource of a page load and the bytes it took on the wire (response headers plus encoded body). */
export interface Transfer {
  url: string;
  type: string;
  bytes: number;
}

// The product budget covers what makes a page: its HTML, stylesheets, scripts and fonts (images, fetches
// and event streams are not part of it).
const weighed = new Set(['document', 'stylesheet', 'script', 'font']);

interface Load {
  transfers: Promise<Transfer | null>[];
  pending: Set<Request>;
}

const loads = new WeakMap<Page, { current: Load }>();
const newLoad = (): Load => ({ transfers: [], pending: new Set() });

/**
 * Records, for every page of the context, the weighed resources of its latest main-frame navigation.
 * Listeners are attached synchronously in the 'page' event, which Playwright emits before newPage()
 * resolves, so no request of a page is missed. Sizes come from request.sizes(), which in Chromium is
 * CDP Network.loadingFinished's encodedDataLength: what crossed the wire, compressed body and headers.
 */
export async function trackTraffic(context: BrowserContext): Promise<void> {
  // Every measured load is a cold one, as for a person arriving on that page first: a stylesheet cached by
  // the previous page of a flow would otherwise weigh nothing. Playwright turns the HTTP cache off for a
  // context that routes requests, before its first page exists (a DevTools session opened per page to
  // switch the cache off came too late for a page's first requests). Routes a test adds later run first.
  await context.route('**/*', (route) => route.continue());
  context.on('page', (page) => {
    const state = { current: newLoad() };
    loads.set(page, state);
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) state.current = newLoad();
      if (weighed.has(request.resourceType())) state.current.pending.add(request);
    });
    const settle = (request: Request, finished: boolean) => {
      const load = state.current;
      if (!load.pending.delete(request)) return;
      load.transfers.push(finished ? measure(request) : Promise.resolve(null));
    };
    page.on('requestfinished', (request) => settle(request, true));
    page.on('requestfailed', (request) => settle(request, false));
  });
}

async function measure(request: Request): Promise<Transfer | null> {
  const sizes = await request.sizes().catch(() => null);
  if (!sizes) return null;
  return {
    url: request.url(),
    type: request.resourceType(),
    bytes: sizes.responseHeadersSize + sizes.responseBodySize,
  };
}

/** The weighed resources of the page's latest load, once none of them is still in flight. */
export async function pageTransfers(page: Page, timeoutMs = 10_000): Promise<Transfer[]> {
  const state = loads.get(page);
  if (!state) {
    throw new Error(
      'checkPage weighs pages of desktopContext() or phoneContext() only: this page is not tracked',
    );
  }
  const deadline = Date.now() + timeoutMs;
  while (state.current.pending.size > 0) {
    if (Date.now() > deadline) {
      const urls = [...state.current.pending].map((r) => r.url());
      throw new Error(`resources still loading after ${timeoutMs} ms: ${urls.join(', ')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const done = await Promise.all(state.current.transfers);
  return done.filter((t): t is Transfer => t !== null);
}
