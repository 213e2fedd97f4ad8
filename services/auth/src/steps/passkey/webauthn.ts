import type { Request, Response } from 'express';
import { z } from 'zod';
import type { FlowDevice } from '../../flow/flow';
import { type Passkey, PasskeyError } from '../../passkeys';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '../../passkeys/ceremonies';
import type { UserDevice } from '../../users/model';
import type { HostedDeps } from '../../web/deps';

/** Just the shape: @simplewebauthn/server checks every field of the response itself. */
const responseSchema = z
  .object({ id: z.string().min(1).max(1400), response: z.object({}).passthrough() })
  .passthrough();

/**
 * The WebAuthn response the page script (pages/assets/passkeys.js) posts as `{ response }`, or undefined when
 * the body holds none. Only its shape is checked here; the ceremony verifies every field.
 */
export function webAuthnResponse<T extends RegistrationResponseJSON | AuthenticationResponseJSON>(
  req: Request,
): T | undefined {
  const parsed = responseSchema.safeParse(((req.body ?? {}) as Record<string, unknown>).response);
  return parsed.success ? (parsed.data as unknown as T) : undefined;
}

/** A new passkey stored, and what was known of its device before (for the device events). */
export interface CreatedPasskey {
  passkey: Passkey;
  /** The user's record of this device before (undefined: a device new to the user). */
  known: UserDevice | undefined;
  /** The user already had a passkey on this device (a suspected one registering again). */
  hadOne: boolean;
}

/**
 * The one finish of a new passkey, for every journey (the sign-in's offer, an enrollment, a registration, on
 * the desktop or on a phone): verifies the creation under the ceremony's challenge (`ceremonyKey`) and
 * stores the passkey for the device. A refused one is answered here (400 `expired` when the challenge is
 * gone, else `refused`) and gives undefined.
 */
export async function finishPasskeyCreation(
  deps: Pick<HostedDeps, 'ceremonies' | 'users' | 'passkeys'>,
  req: Request,
  res: Response,
  opts: {
    ceremonyKey: string;
    userId: string;
    device: FlowDevice;
    response: RegistrationResponseJSON;
    flowId: string;
    /** What the log line calls a refusal. */
    what: string;
  },
): Promise<CreatedPasskey | undefined> {
  const { userId, device } = opts;
  const known = await deps.users.devices.get(userId, device.deviceId);
  const hadOne = (await deps.passkeys.listForUser(userId)).some((p) => p.deviceId === device.deviceId);
  try {
    const passkey = await deps.ceremonies.register(opts.ceremonyKey, device.deviceId, opts.response);
    return { passkey, known, hadOne };
  } catch (err) {
    if (!(err instanceof PasskeyError)) throw err;
    req.log.info({ reason: err.reason, cause: err.cause, flowId: opts.flowId }, `${opts.what} refused`);
    res.status(400).json({ error: err.reason === 'noChallenge' ? 'expired' : 'refused' });
    return undefined;
  }
}

/**
 * A new passkey made in the tab the journey started in: the posted WebAuthn response (400 `invalidResponse`
 * when there is none), finished under the journey's own challenge for its originating device.
 */
export async function createPasskeyInOriginatingTab(
  deps: Pick<HostedDeps, 'ceremonies' | 'users' | 'passkeys'>,
  req: Request,
  res: Response,
  journey: { id: string; userId: string; originatingDevice: FlowDevice },
  what: string,
): Promise<CreatedPasskey | undefined> {
  const response = webAuthnResponse<RegistrationResponseJSON>(req);
  if (!response) return void res.status(400).json({ error: 'invalidResponse' });
  return finishPasskeyCreation(deps, req, res, {
    ceremonyKey: journey.id,
    userId: journey.userId,
    device: journey.originatingDevice,
    response,
    flowId: journey.id,
    what,
  });
}

/** The device event of a new passkey: a suspected device registering again, or a device new to the user. */
export const deviceEventOf = (created: CreatedPasskey) =>
  created.hadOne ? 'device_re_register' : !created.known ? 'new_device_registered' : undefined;

/** Keeps the device among the user's devices (device_count counts it), first registered when first seen. */
export async function rememberDevice(
  deps: Pick<HostedDeps, 'users' | 'now'>,
  userId: string,
  device: FlowDevice,
  known: UserDevice | undefined,
  now = deps.now(),
): Promise<void> {
  await deps.users.devices.save({
    userId,
    deviceId: device.deviceId,
    registeredAt: known?.registeredAt ?? now,
    lastSeenAt: now,
    facts: device.facts,
  });
}
