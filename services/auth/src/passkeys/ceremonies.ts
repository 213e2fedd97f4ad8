import type { KeyValueStore } from '@sesame/kv';
import {
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Passkey } from './model';
import type { PasskeyRepository } from './passkeys.repository';

export type { AuthenticationResponseJSON, RegistrationResponseJSON };

export interface WebAuthnSettings {
  /** The auth_url host: passkeys are scoped to it. */
  rpId: string;
  /** Shown by the authenticator when a passkey is created. */
  rpName: string;
  /** Origins a ceremony may come from (default: auth_url's origin). */
  origins: string[];
  /** A challenge is good this long, and once. */
  challengeTtlMs: number;
}

/**
 * Why a ceremony was refused. `userVerification`: a registered passkey signed, but without user verification
 * (the person failed biometrics or the PIN): xm_mfca_required. `counter`: the signature counter went backwards
 * (a possible clone): the passkey is marked suspected. Everything else is a bad or stale response.
 */
export type PasskeyFailure =
  | 'noChallenge'
  | 'unknownCredential'
  | 'otherUser'
  | 'suspended'
  | 'invalid'
  | 'userVerification'
  | 'counter';

export class PasskeyError extends Error {
  constructor(
    readonly reason: PasskeyFailure,
    readonly passkey?: Passkey,
    cause?: unknown,
  ) {
    super(`passkey ceremony refused: ${reason}`, { cause });
    this.name = 'PasskeyError';
  }
}

/** What a challenge is for; kept in the KV store under the flow's id, taken (deleted) by the verification. */
/** The library's verification; a throw of it (a malformed or foreign response) is `invalid`. */
async function verifiedOrInvalid<T>(verify: () => Promise<T>, passkey?: Passkey): Promise<T> {
  try {
    return await verify();
  } catch (err) {
    throw new PasskeyError('invalid', passkey, err);
  }
}

interface PendingChallenge {
  kind: 'register' | 'authenticate';
  challenge: string;
  /** Registration: the user creating the passkey. Authentication with the email known: its owner. */
  userId?: string;
}

const challengeKey = (flowId: string) => `passkey-challenge:${flowId}`;

/**
 * The WebAuthn ceremonies of one flow (@simplewebauthn/server does the cryptography). Each options call
 * stores one challenge bound to the flow, replacing any earlier one; each verification takes it, so a
 * challenge answers at most one response (a replay finds none), of the kind it was made for, before it expires.
 */
export class PasskeyCeremonies {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly store: PasskeyRepository,
    private readonly settings: WebAuthnSettings,
    private readonly now: () => number = Date.now,
  ) {}

  private async remember(flowId: string, pending: PendingChallenge): Promise<void> {
    await this.kv.set(challengeKey(flowId), JSON.stringify(pending), { ttlMs: this.settings.challengeTtlMs });
  }

  /** What every verification expects: the flow's challenge, one of the configured origins, the RP ID. */
  private expected(pending: PendingChallenge) {
    return {
      expectedChallenge: pending.challenge,
      expectedOrigin: this.settings.origins,
      expectedRPID: this.settings.rpId,
    };
  }

  private async take(flowId: string, kind: PendingChallenge['kind']): Promise<PendingChallenge> {
    const raw = await this.kv.take(challengeKey(flowId));
    const pending = raw ? (JSON.parse(raw) as PendingChallenge) : undefined;
    if (!pending || pending.kind !== kind) throw new PasskeyError('noChallenge');
    return pending;
  }

  /** Options to create a discoverable passkey with user verification and no attestation. */
  async registrationOptions(
    flowId: string,
    user: { userId: string; email?: string },
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    // Active passkeys only: an authenticator holding a suspected one may create a new credential.
    const existing = (await this.store.listForUser(user.userId)).filter((p) => p.status === 'active');
    const options = await generateRegistrationOptions({
      rpName: this.settings.rpName,
      rpID: this.settings.rpId,
      userName: user.email ?? user.userId,
      userID: new TextEncoder().encode(user.userId),
      attestationType: 'none',
      timeout: this.settings.challengeTtlMs,
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.remember(flowId, { kind: 'register', challenge: options.challenge, userId: user.userId });
    return options;
  }

  /** Verifies a new passkey and stores it for the user, linked to the device that created it. */
  async register(flowId: string, deviceId: string, response: RegistrationResponseJSON): Promise<Passkey> {
    const pending = await this.take(flowId, 'register');
    const verified = await verifiedOrInvalid(() =>
      verifyRegistrationResponse({ response, ...this.expected(pending), requireUserVerification: true }),
    );
    if (!verified.verified || !pending.userId) throw new PasskeyError('invalid');
    const info = verified.registrationInfo;
    const passkey: Passkey = {
      credentialId: info.credential.id,
      userId: pending.userId,
      deviceId,
      publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
      counter: info.credential.counter,
      transports: response.response.transports ?? [],
      aaguid: info.aaguid,
      backupEligible: info.credentialDeviceType === 'multiDevice',
      backedUp: info.credentialBackedUp,
      createdAt: this.now(),
      status: 'active',
    };
    await this.store.create(passkey);
    return passkey;
  }

  /**
   * Options to sign in: with the person's passkeys listed when their account is known (allowCredentials),
   * else for a discoverable passkey (the browser offers the ones it has, also as autofill).
   */
  async authenticationOptions(
    flowId: string,
    userId?: string,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const mine = userId ? (await this.store.listForUser(userId)).filter((p) => p.status === 'active') : [];
    const options = await generateAuthenticationOptions({
      rpID: this.settings.rpId,
      userVerification: 'required',
      timeout: this.settings.challengeTtlMs,
      allowCredentials: mine.map((p) => ({ id: p.credentialId, transports: p.transports })),
    });
    await this.remember(flowId, {
      kind: 'authenticate',
      challenge: options.challenge,
      ...(mine.length ? { userId } : {}),
    });
    return options;
  }

  /**
   * Verifies a sign-in assertion against the stored passkey: signature, challenge, origin and RP ID first;
   * then user verification (a valid signature without it is `userVerification`) and the signature counter
   * (backwards or standing still while counting: `counter`, and the passkey is marked suspected). Only a
   * verified signature can mark a passkey, so a forged response cannot suspend someone's passkey.
   */
  async authenticate(flowId: string, response: AuthenticationResponseJSON): Promise<Passkey> {
    const pending = await this.take(flowId, 'authenticate');
    const stored = typeof response?.id === 'string' ? await this.store.get(response.id) : undefined;
    if (!stored) throw new PasskeyError('unknownCredential');
    if (pending.userId && pending.userId !== stored.userId) throw new PasskeyError('otherUser', stored);
    if (stored.status !== 'active') throw new PasskeyError('suspended', stored);
    const verified = await verifiedOrInvalid(
      () =>
        verifyAuthenticationResponse({
          response,
          ...this.expected(pending),
          // Counter and user verification are checked below, where their failures have their own outcomes.
          credential: {
            id: stored.credentialId,
            publicKey: isoBase64URL.toBuffer(stored.publicKey),
            counter: 0,
            transports: stored.transports as never,
          },
          requireUserVerification: false,
        }),
      stored,
    );
    if (!verified.verified) throw new PasskeyError('invalid', stored);
    const { newCounter, userVerified, credentialBackedUp } = verified.authenticationInfo;
    if (!userVerified) throw new PasskeyError('userVerification', stored);
    if ((newCounter > 0 || stored.counter > 0) && newCounter <= stored.counter) {
      await this.store.markSuspected(stored.credentialId);
      throw new PasskeyError('counter', { ...stored, status: 'suspected' });
    }
    const at = this.now();
    await this.store.recordUse(stored.credentialId, {
      counter: newCounter,
      backedUp: credentialBackedUp,
      at,
    });
    return { ...stored, counter: newCounter, backedUp: credentialBackedUp, lastUsedAt: at };
  }
}
