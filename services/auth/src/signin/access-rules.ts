import type { Flow, FlowDevice } from '../flow/flow';
import type { UserStore } from '../users/users.repository';

/**
 * The admin-set rules that can refuse a sign-in whatever the person proved: a country the tenant blocks (its
 * location rule) and a device blocked for the user. prove.ts applies them when a flow becomes proven;
 * /authorize applies the location rule before a flow starts.
 */

/** Is this IP address in a country the flow's tenant blocks? Returns the country. */
export function blockedCountry(
  deps: { countryOf(ip: string): string | undefined },
  flow: Pick<Flow, 'blockedCountries'>,
  ip: string,
): string | undefined {
  if (!flow.blockedCountries?.length) return undefined;
  const country = deps.countryOf(ip);
  return country && flow.blockedCountries.includes(country) ? country : undefined;
}

/**
 * Has an admin of the flow's tenant blocked one of its devices for this user (admin API, Users.BlockDevice)?
 * The devices are the browser that started the flow, the one that proved who the person is, and for a phone's
 * flow (desktop to mobile) the desktop it signs in.
 */
export async function blockedDevice(
  deps: { users: Pick<UserStore, 'deviceAccess'> },
  flow: Pick<Flow, 'tenantId' | 'originatingDevice' | 'proof' | 'ama'>,
  userId: string,
): Promise<FlowDevice | undefined> {
  // Each device once (the browser that started a flow is most often the one that proved it), all looked up
  // at once; the first blocked one in this order is the answer.
  const devices = [
    ...new Map(
      [
        flow.originatingDevice,
        ...(flow.proof ? [flow.proof.device] : []),
        ...(flow.ama ? [flow.ama.desktopDevice] : []),
      ].map((d) => [d.deviceId, d]),
    ).values(),
  ];
  const access = await Promise.all(
    devices.map((device) => deps.users.deviceAccess.get(flow.tenantId, userId, device.deviceId)),
  );
  return devices.find((_, i) => access[i] && !access[i].allowAccess);
}
