import { DISPLAY_VALUES, oauthErrors as problems } from '@sesame/oauth';

const supported: ReadonlySet<string> = new Set(DISPLAY_VALUES);

/** Pages are the only display (spec 4.2). */
export function checkDisplay(display: string | undefined): void {
  if (display !== undefined && !supported.has(display))
    throw problems.invalidRequest(`only display ${DISPLAY_VALUES.join(', ')} is supported`);
}
