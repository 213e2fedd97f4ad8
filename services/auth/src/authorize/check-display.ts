import { problems } from './authorize-error';

/** Pages are the only display (spec 4.2). */
export function checkDisplay(display: string | undefined): void {
  if (display !== undefined && display !== 'page')
    throw problems.invalidRequest('only display page is supported');
}
