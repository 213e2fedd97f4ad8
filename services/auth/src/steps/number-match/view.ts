import type { Flow } from '../../flow/flow';
import type { NumberMatch } from '../../flow/number-match';
import type { NumberMatchView } from '../../pages';
import type { DeviceFacts } from '../../users/model';
import type { HostedDeps } from '../../web/deps';

const known = (value: string) => (value && value !== 'Unknown' ? value : '');

/** "Chrome 140" / "macOS 10.15": the type with its major version when the User-Agent told them. */
function described(type: string, version: string): string {
  const major = known(version).split('.').slice(0, 2).join('.');
  return [known(type) || 'Unknown', major].filter(Boolean).join(' ');
}

/**
 * The approving page of a cross-device sign-in: the device that started `started` (its browser and OS, its
 * approximate place by its IP address, when it started) and the three choices of its number match.
 */
export function numberMatchView(
  deps: Pick<HostedDeps, 'placeOf'>,
  page: {
    purpose: NumberMatchView['purpose'];
    started: Pick<Flow, 'appName' | 'createdAt' | 'clientIp' | 'originatingDevice'>;
    match: NumberMatch;
    email?: string;
    action: string;
    csrf: string;
  },
): NumberMatchView {
  const facts: DeviceFacts = page.started.originatingDevice.facts;
  const place = deps.placeOf?.(page.started.clientIp);
  return {
    purpose: page.purpose,
    appName: page.started.appName,
    email: page.email,
    action: page.action,
    csrf: page.csrf,
    choices: [...page.match.choices],
    other: {
      browser: described(facts.browserType, facts.browserVersion.split('.')[0] ?? ''),
      os: described(facts.osType, facts.osVersion),
      city: place?.city,
      country: place?.country,
      startedAt: page.started.createdAt,
    },
  };
}
