import type { DeviceFacts } from './user-agent';

/** Operating systems of phones and tablets (as the user-agent parser names them). */
const HANDHELD_OS = new Set(['iOS', 'iPadOS', 'Android', 'Windows Phone', 'HarmonyOS', 'KaiOS']);

/**
 * Whether a browser is a phone or a tablet: the `Sec-CH-UA-Mobile` client hint when the request sent one
 * (`?1` / `?0`), else what its User-Agent says. Desktop to mobile is not offered first on such a browser: its
 * QR code would have to be scanned by the device showing it. (An iPad asking for desktop sites says "Mac";
 * it gets the desktop choice, which still works with a second device.)
 */
export function isHandheld(facts: DeviceFacts | undefined, mobileHint?: string): boolean {
  if (mobileHint === '?1') return true;
  if (mobileHint === '?0') return false;
  return facts !== undefined && HANDHELD_OS.has(facts.osType);
}
