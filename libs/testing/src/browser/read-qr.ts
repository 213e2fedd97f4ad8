import jsQR from 'jsqr';
import type { Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';

/**
 * The text of the QR code the element shows, read from a screenshot of it as a phone's camera would read
 * the screen. Throws when no QR code can be decoded there.
 */
export async function readQrFromScreenshot(page: Page, target: Locator | string): Promise<string> {
  const locator = typeof target === 'string' ? page.locator(target) : target;
  const png = PNG.sync.read(await locator.screenshot());
  const code = jsQR(
    new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length),
    png.width,
    png.height,
  );
  if (!code)
    throw new Error(`no QR code could be read from ${locator} (${png.width}×${png.height} px screenshot)`);
  return code.data;
}
