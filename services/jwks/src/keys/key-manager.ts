import { type KeyObject, createPrivateKey, createPublicKey } from 'node:crypto';
import type { Clock, Logger } from '@sesame/platform';
import { serializeJwks } from './jwks-document';
import { type KeyTimings, type KeyUse, type StoredKey, algorithmOf, keySlots, signingAlgs } from './key';
import type { KeyEncryptionKey } from './key-encryption';
import type { GenerateKeyMaterial } from './key-material';
import { currentKey, isEmptyPlan, planKeyRing, publishedKeys } from './key-ring';
import { type KeyRepository, nextGeneration } from './key.repository';

/** The active signing key as streamed to token pods. */
export interface ActiveSigningKey {
  kid: string;
  alg: string;
  privateKeyPem: string;
  activatedAt: number;
}

export interface KeyManagerDeps {
  repo: KeyRepository;
  kek: KeyEncryptionKey;
  clock: Clock;
  timings: KeyTimings;
  generate: GenerateKeyMaterial;
  logger: Logger;
  /**
   * Called after this pod changed the key store (created, activated, retired or deleted keys) and reloaded it,
   * so the other pods reload at once (service.ts signals them through the KV) instead of on their next poll.
   */
  announce?: () => void;
}

/**
 * Holds this pod's view of the key ring: reconciles it with the store (on a timer, on demand), keeps the
 * pre-serialized /jwks body and the decrypted private keys of published keys, and tells watchers when the
 * active signing key changes. Reconciles run one at a time.
 */
export class KeyManager {
  private keys: StoredKey[] = [];
  private fingerprint = '';
  private body = serializeJwks([]);
  private readonly privateKeys = new Map<string, { pem: string; key: KeyObject }>();
  /** The active key of each signing alg (RS256, PS256, ES256), in that order. */
  private signing: ActiveSigningKey[] = [];
  private readonly watchers = new Set<(keys: ActiveSigningKey[]) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private nextDueAt: number | undefined;

  constructor(private readonly deps: KeyManagerDeps) {}

  /** The /jwks body; replaced (never mutated) when the published set changes. */
  jwksBody(): Buffer {
    return this.body;
  }

  /** The active key of an alg (RS256, the spec's key, by default). */
  activeSigningKey(alg = 'RS256'): ActiveSigningKey | undefined {
    return this.signing.find((k) => k.alg === alg);
  }

  /** The active key of every signing alg that has one. */
  activeSigningKeys(): ActiveSigningKey[] {
    return this.signing;
  }

  /** The private key of a published enc key by kid, or the current enc key when kid is absent. */
  decryptionKey(kid?: string): { kid: string; key: KeyObject } | undefined {
    const wanted = kid ?? currentKey(this.keys, 'enc')?.kid;
    const key = this.keys.find((k) => k.kid === wanted && k.use === 'enc');
    const priv = key && this.privateKeys.get(key.kid);
    return key && priv ? { kid: key.kid, key: priv.key } : undefined;
  }

  /**
   * The public key and alg of a published signing key (pending, active or retired) by kid: what /jwks lets
   * RPs verify with.
   */
  verificationKey(kid: string): { key: KeyObject; alg: string } | undefined {
    const key = this.keys.find((k) => k.kid === kid && k.use === 'sig');
    return key
      ? { key: createPublicKey({ key: { ...key.publicJwk }, format: 'jwk' }), alg: key.alg }
      : undefined;
  }

  /** The active private key of an alg (RS256 by default), for the tokens jwks signs itself (logout tokens). */
  signingKey(alg = 'RS256'): { kid: string; alg: string; key: KeyObject } | undefined {
    const active = this.activeSigningKey(alg);
    const priv = active && this.privateKeys.get(active.kid);
    return active && priv ? { kid: active.kid, alg: active.alg, key: priv.key } : undefined;
  }

  /**
   * Calls the listener with the active key of every signing alg whenever one of them changes; returns the
   * unsubscribe function.
   */
  watchSigningKey(listener: (keys: ActiveSigningKey[]) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /** Brings the store up to date with the schedule (bootstrap, activate, retire, rotate, delete), then reloads. */
  reconcile(): Promise<void> {
    return this.serialized(() => this.reconcileNow());
  }

  /**
   * Starts a rotation now: a new pending key in every slot (or the pending one of a rotation under way);
   * `signing` is the RS256 one.
   */
  rotate(): Promise<{ signing: StoredKey; encryption: StoredKey; activatesAt: number }> {
    return this.serialized(async () => {
      await this.reconcileNow();
      const stored = await this.deps.repo.list();
      const pendingOf = async (use: KeyUse, alg: string): Promise<StoredKey> => {
        const inSlot = (k: StoredKey) => k.use === use && k.alg === alg && k.status === 'pending';
        const pending = stored.find(inSlot);
        if (pending) return pending;
        await this.createKey(use, alg, nextGeneration(await this.deps.repo.list(), use), 'pending');
        const created = (await this.deps.repo.list()).filter(inSlot).at(-1);
        if (!created) throw new Error(`rotation of the ${use} ${alg} key produced no pending key`);
        return created;
      };
      const pending: StoredKey[] = [];
      for (const slot of keySlots) pending.push(await pendingOf(slot.use, slot.alg));
      const signing = pending.find((k) => k.use === 'sig' && k.alg === algorithmOf.sig)!;
      const encryption = pending.find((k) => k.use === 'enc')!;
      await this.load();
      this.deps.announce?.();
      this.deps.logger.info(
        { signingKid: signing.kid, encryptionKid: encryption.kid },
        'key rotation started',
      );
      return { signing, encryption, activatesAt: signing.createdAt + this.deps.timings.publishDelayMs };
    });
  }

  /** Reloads the key ring from the store now (another pod announced a change): no schedule work, no announce. */
  refresh(): Promise<void> {
    return this.serialized(() => this.load());
  }

  /** Reconciles at the next due time, and at least every pollMs (to see keys changed by other pods). */
  start(pollMs: number): void {
    const tick = () => {
      this.reconcile()
        .catch((err) =>
          this.deps.logger.error({ err }, 'key ring reconcile failed; serving the last key set'),
        )
        .finally(() => {
          if (!this.timer) return;
          const untilDue = this.nextDueAt === undefined ? pollMs : this.nextDueAt - this.deps.clock.now();
          this.timer = setTimeout(tick, Math.max(10, Math.min(pollMs, untilDue)));
          this.timer.unref();
        });
    };
    this.timer = setTimeout(tick, 0);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.watchers.clear();
  }

  private serialized<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async reconcileNow(): Promise<void> {
    // A few rounds: activating a key makes the previous one retirable in the next round, and each round
    // creates at most one key per use (the sig slots share the generation counter).
    let changed = false;
    for (let round = 0; round < 8; round++) {
      const stored = await this.deps.repo.list();
      const now = this.deps.clock.now();
      const plan = planKeyRing(stored, now, this.deps.timings);
      this.nextDueAt = plan.nextDueAt;
      if (isEmptyPlan(plan)) break;
      changed = true;
      const { repo, logger } = this.deps;
      for (const g of plan.generate) await this.createKey(g.use, g.alg, g.generation, g.status);
      for (const kid of plan.activate)
        if (await repo.activate(kid, now)) logger.info({ kid }, 'key activated');
      for (const r of plan.retire)
        if (await repo.retire(r.kid, now, r.retireAfter)) logger.info(r, 'key retired');
      if (plan.deleteExpired) await repo.deleteExpired(now);
    }
    await this.load();
    if (changed) this.deps.announce?.();
  }

  private async createKey(
    use: KeyUse,
    alg: string,
    generation: number,
    status: 'active' | 'pending',
  ): Promise<void> {
    const material = await this.deps.generate(use, alg);
    const { privateKeyPem, ...pub } = material;
    const key: StoredKey = {
      ...pub,
      generation,
      privateKeyEnc: this.deps.kek.seal(material.kid, privateKeyPem),
      status,
      ...(status === 'active' ? { activatedAt: material.createdAt } : {}),
    };
    // false: another pod created this generation first; its key is the one everybody uses.
    if (await this.deps.repo.insert(key))
      this.deps.logger.info({ kid: key.kid, use, alg, generation, status }, 'key created');
  }

  private async load(): Promise<void> {
    const now = this.deps.clock.now();
    const published = publishedKeys(await this.deps.repo.list(), now);
    const fingerprint = published.map((k) => `${k.kid}:${k.status}`).join(',');
    if (fingerprint === this.fingerprint) return;
    for (const key of published) {
      if (this.privateKeys.has(key.kid)) continue;
      const pem = this.deps.kek.open(key.kid, key.privateKeyEnc);
      this.privateKeys.set(key.kid, { pem, key: createPrivateKey(pem) });
    }
    for (const kid of this.privateKeys.keys())
      if (!published.some((k) => k.kid === kid)) this.privateKeys.delete(kid);
    this.keys = published;
    this.fingerprint = fingerprint;
    this.body = serializeJwks(published);
    const signing = signingAlgs.flatMap((alg) => {
      const sig = currentKey(published, 'sig', alg);
      if (!sig) return [];
      const same = this.signing.find((k) => k.kid === sig.kid);
      if (same) return [same];
      const priv = this.privateKeys.get(sig.kid)!;
      return [
        {
          kid: sig.kid,
          alg: sig.alg,
          privateKeyPem: priv.pem,
          activatedAt: sig.activatedAt ?? sig.createdAt,
        },
      ];
    });
    const changed =
      signing.length !== this.signing.length || signing.some((k, i) => k.kid !== this.signing[i]?.kid);
    if (changed && signing.length > 0) {
      this.signing = signing;
      for (const watcher of this.watchers) watcher(this.signing);
    }
  }
}
