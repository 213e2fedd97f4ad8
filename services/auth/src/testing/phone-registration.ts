import assert from 'node:assert/strict';
import { afterAll, beforeAll } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { smsOutbox } from './ciba';
import { TestBrowser, startAuth } from './hosted-test-client';
import { activationRequest } from './invitations';
import { type UsersClient, type UsersGrpcHarness, startUsersGrpc } from './users-grpc';

type Auth = Awaited<ReturnType<typeof startAuth>>;
export const PHONE = 'ts.svc.iac.phone_number';

/** An auth service with an SMS outbox whose Users contract makes invitations over gRPC, as mgmt calls it. */
export function phoneRegistrationHarness(env: Record<string, string> = {}) {
  const h = { sms: smsOutbox() } as {
    auth: Auth;
    grpc: UsersGrpcHarness;
    client: UsersClient;
    bus: MemoryEventBus;
    sms: ReturnType<typeof smsOutbox>;
  };
  beforeAll(async () => {
    h.bus = new MemoryEventBus();
    h.auth = await startAuth({ bus: h.bus, sms: h.sms, env });
    h.grpc = await startUsersGrpc((server) => h.auth.module.grpc?.(server));
    h.client = await h.grpc.client();
  });
  afterAll(async () => {
    await h.grpc.stop();
    await h.auth.stop();
  });
  return h;
}

/** Invites `email` with `verifications`, takes the link and presses Continue: the registration's path. */
export async function registrationTaken(
  h: ReturnType<typeof phoneRegistrationHarness>,
  email: string,
  verifications: string[] = ['ts.svc.iac.email', PHONE],
) {
  const req = activationRequest({ userEmail: email, aliasValue: email.split('@')[0], verifications });
  const { flowId } = await h.client.createActivationLink(req);
  const link = /\/register\/[\w-]{43}/.exec(
    h.auth.outbox.list().find((m) => m.to === email)?.text ?? '',
  )?.[0];
  assert.ok(link, 'the mail carries the link');
  const browser = h.auth.browser();
  const csrf = TestBrowser.csrf((await browser.request(link)).body);
  const taken = await browser.request(link, { form: { csrf } });
  assert.equal(taken.location, `/registration/${flowId}`);
  return { browser, csrf, flow: taken.location, flowId };
}

/** The 6-digit code of the latest text message to `to` (the outbox lists the newest first). */
export const smsCodeFor = (h: ReturnType<typeof phoneRegistrationHarness>, to: string) =>
  /\b(\d{6})\b/.exec(h.sms.list().find((m) => m.to === to)?.text ?? '')?.[1] ?? '';

/** A 6-digit code that is not `right`. */
export const wrongCode = (right: string) => (right === '000000' ? '111111' : '000000');
