import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { PasskeyCeremonies, PasskeyError, type PasskeyFailure } from './ceremonies';
import { memoryPasskeyStore } from './passkeys.memory';
import type { PasskeyRepository } from './passkeys.repository';
import { SoftwareAuthenticator } from './software-authenticator';

const origin = 'https://auth.example';
const rpId = 'auth.example';

const refusedWith = (reason: PasskeyFailure) => (err: unknown) => {
  assert.ok(err instanceof PasskeyError, String(err));
  assert.equal(err.reason, reason);
  return true;
};

describe('passkey ceremonies', () => {
  let clock: number;
  let kv: MemoryKeyValueStore;
  let store: PasskeyRepository;
  let ceremonies: PasskeyCeremonies;
  const user = { userId: randomUUID(), email: 'ada@example.com' };

  beforeEach(() => {
    clock = 1_000_000;
    kv = new MemoryKeyValueStore(() => clock);
    store = memoryPasskeyStore();
    ceremonies = new PasskeyCeremonies(
      kv,
      store,
      { rpId, rpName: 'Sesame', origins: [origin], challengeTtlMs: 60_000 },
      () => clock,
    );
  });

  /** A passkey registered for `user` on device `device-1`, and a fresh flow id to sign in with. */
  async function registered() {
    const authenticator = new SoftwareAuthenticator();
    const options = await ceremonies.registrationOptions('flow-reg', user);
    await ceremonies.register('flow-reg', 'device-1', authenticator.create(options, { origin }));
    return authenticator;
  }

  /** The passkey answers a fresh sign-in challenge of `flowId` (as `at` says) and the answer is verified. */
  async function signIn(
    flowId: string,
    authenticator: SoftwareAuthenticator,
    at: Parameters<SoftwareAuthenticator['get']>[1] = { origin },
  ) {
    const options = await ceremonies.authenticationOptions(flowId);
    return ceremonies.authenticate(flowId, authenticator.get(options, at));
  }

  it('registers a discoverable, user-verified passkey without attestation and stores it for the user and device', async () => {
    const authenticator = new SoftwareAuthenticator();
    const options = await ceremonies.registrationOptions('flow-1', user);
    assert.equal(options.rp.id, rpId);
    assert.equal(options.attestation, 'none');
    assert.equal(options.authenticatorSelection?.residentKey, 'required');
    assert.equal(options.authenticatorSelection?.userVerification, 'required');
    const passkey = await ceremonies.register(
      'flow-1',
      'device-1',
      authenticator.create(options, { origin }),
    );
    assert.deepEqual(await store.get(authenticator.credentialId), passkey);
    assert.equal(passkey.userId, user.userId);
    assert.equal(passkey.deviceId, 'device-1');
    assert.deepEqual(passkey.transports, ['internal']);
    assert.equal(passkey.aaguid, '00000000-0000-0000-0000-000000000000');
    assert.equal(passkey.backupEligible, true);
    assert.equal(passkey.status, 'active');
  });

  it('signs in with the passkey, with the account known (allowCredentials) and without (discoverable)', async () => {
    const authenticator = await registered();
    const known = await ceremonies.authenticationOptions('flow-2', user.userId);
    assert.deepEqual(
      known.allowCredentials?.map((c) => c.id),
      [authenticator.credentialId],
    );
    authenticator.counter = 1;
    const first = await ceremonies.authenticate('flow-2', authenticator.get(known, { origin }));
    assert.equal(first.userId, user.userId);
    assert.equal((await store.get(authenticator.credentialId))?.counter, 1);

    const anyone = await ceremonies.authenticationOptions('flow-3');
    assert.deepEqual(anyone.allowCredentials ?? [], []);
    authenticator.counter = 2;
    const second = await ceremonies.authenticate('flow-3', authenticator.get(anyone, { origin }));
    assert.equal(second.userId, user.userId);
    assert.equal((await store.get(authenticator.credentialId))?.lastUsedAt, clock);
  });

  it('refuses a signature counter that goes backwards and marks the passkey suspected', async () => {
    const authenticator = await registered();
    authenticator.counter = 5;
    await signIn('flow-2', authenticator);

    authenticator.counter = 4; // a clone that signed fewer times
    await assert.rejects(signIn('flow-3', authenticator), refusedWith('counter'));
    const stored = await store.get(authenticator.credentialId);
    assert.equal(stored?.status, 'suspected');
    assert.equal(stored?.counter, 5);

    // A suspected passkey signs nobody in, even with a counter ahead again.
    authenticator.counter = 9;
    await assert.rejects(signIn('flow-4', authenticator), refusedWith('suspended'));
  });

  it('refuses an assertion made for another origin, and leaves the counter as it was', async () => {
    const authenticator = await registered();
    authenticator.counter = 3;
    await assert.rejects(
      signIn('flow-2', authenticator, { origin: 'https://evil.example' }),
      refusedWith('invalid'),
    );
    assert.equal((await store.get(authenticator.credentialId))?.counter, 0);
  });

  it('refuses a registration made for another origin', async () => {
    const options = await ceremonies.registrationOptions('flow-1', user);
    const authenticator = new SoftwareAuthenticator();
    await assert.rejects(
      ceremonies.register(
        'flow-1',
        'device-1',
        authenticator.create(options, { origin: 'https://evil.example' }),
      ),
      refusedWith('invalid'),
    );
    assert.equal(await store.get(authenticator.credentialId), undefined);
  });

  it('refuses an assertion and a registration scoped to another RP ID', async () => {
    const authenticator = await registered();
    authenticator.counter = 1;
    await assert.rejects(
      signIn('flow-2', authenticator, { origin, rpId: 'evil.example' }),
      refusedWith('invalid'),
    );
    const other = new SoftwareAuthenticator();
    const creation = await ceremonies.registrationOptions('flow-3', user);
    await assert.rejects(
      ceremonies.register('flow-3', 'device-1', other.create(creation, { origin, rpId: 'evil.example' })),
      refusedWith('invalid'),
    );
    assert.equal(await store.get(other.credentialId), undefined);
  });

  it('a challenge answers once: the same response replayed is refused', async () => {
    const authenticator = await registered();
    authenticator.counter = 1;
    const options = await ceremonies.authenticationOptions('flow-2');
    const response = authenticator.get(options, { origin });
    await ceremonies.authenticate('flow-2', response);
    await assert.rejects(ceremonies.authenticate('flow-2', response), refusedWith('noChallenge'));
  });

  it('a challenge belongs to its flow, its ceremony, and expires', async () => {
    const authenticator = await registered();
    authenticator.counter = 1;
    const options = await ceremonies.authenticationOptions('flow-2');
    await assert.rejects(
      ceremonies.authenticate('flow-other', authenticator.get(options, { origin })),
      refusedWith('noChallenge'),
    );
    const creation = await ceremonies.registrationOptions('flow-3', user);
    await assert.rejects(
      ceremonies.authenticate(
        'flow-3',
        authenticator.get({ ...options, challenge: creation.challenge }, { origin }),
      ),
      refusedWith('noChallenge'),
    );
    const late = await ceremonies.authenticationOptions('flow-4');
    clock += 60_001;
    await assert.rejects(
      ceremonies.authenticate('flow-4', authenticator.get(late, { origin })),
      refusedWith('noChallenge'),
    );
  });

  it('a valid signature without user verification is its own refusal (xm_mfca_required)', async () => {
    const authenticator = await registered();
    authenticator.counter = 1;
    await assert.rejects(
      signIn('flow-2', authenticator, { origin, userVerified: false }),
      refusedWith('userVerification'),
    );
    assert.equal((await store.get(authenticator.credentialId))?.status, 'active');
  });

  it('with the account known, a passkey of someone else is refused', async () => {
    const mine = await registered();
    const someone = { userId: randomUUID(), email: 'bob@example.com' };
    const theirs = new SoftwareAuthenticator();
    const creation = await ceremonies.registrationOptions('flow-b', someone);
    await ceremonies.register('flow-b', 'device-2', theirs.create(creation, { origin }));
    const options = await ceremonies.authenticationOptions('flow-2', user.userId);
    assert.deepEqual(
      options.allowCredentials?.map((c) => c.id),
      [mine.credentialId],
    );
    theirs.counter = 1;
    await assert.rejects(
      ceremonies.authenticate('flow-2', theirs.get(options, { origin })),
      refusedWith('otherUser'),
    );
  });

  it('a forged signature is refused and does not mark the passkey', async () => {
    const authenticator = await registered();
    const impostor = new SoftwareAuthenticator();
    Object.assign(impostor, { credentialId: authenticator.credentialId });
    const options = await ceremonies.authenticationOptions('flow-2');
    await assert.rejects(
      ceremonies.authenticate('flow-2', impostor.get(options, { origin })),
      refusedWith('invalid'),
    );
    assert.equal((await store.get(authenticator.credentialId))?.status, 'active');
  });
});
