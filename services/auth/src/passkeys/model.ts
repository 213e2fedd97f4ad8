/**
 * A passkey (WebAuthn credential) a user registered on one of their devices. Auth owns these (ARCHITECTURE
 * §1): the public key checks sign-in assertions; nothing secret is stored.
 */
export interface Passkey {
  /** The credential id, base64url: unique across all users. */
  credentialId: string;
  userId: string;
  /** The device (device cookie) the passkey was created on: the UserDevice record of (userId, deviceId). */
  deviceId: string;
  /** COSE public key, base64url. */
  publicKey: string;
  /** Signature counter of the last accepted assertion (0 for authenticators that do not count). */
  counter: number;
  /** Transports the browser reported (internal, hybrid, usb, …): hints for allowCredentials. */
  transports: string[];
  /** Authenticator model (AAGUID); all zeros with attestation none on many platforms. */
  aaguid: string;
  /** Backup eligible (a synced, multi-device passkey) and currently backed up. */
  backupEligible: boolean;
  backedUp: boolean;
  createdAt: number;
  lastUsedAt?: number;
  /** `suspected`: an assertion showed a counter going backwards (a possible clone); it signs nobody in. */
  status: 'active' | 'suspected';
}
