import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { type FunnelStage, createSigninFunnel, stagesOf } from './funnel';
import type { FlowEventFacts } from './schema';

let seq = 0;
const event = (flowId: string, action: string, facts: Partial<FlowEventFacts> = {}): FlowEventFacts => ({
  eventId: `e${++seq}`,
  flowId,
  tenantId: 't1',
  appId: 'a1',
  timestamp: 0,
  action,
  clientIp: '192.0.2.1',
  details: {},
  ...facts,
});

function harness(abandonAfterMs = 1000, maxOpenFlows = 100) {
  let clock = 0;
  const counts = new Map<string, number>();
  let untracked = 0;
  const funnel = createSigninFunnel({
    counters: {
      stage: ({ stage, method, flow }) => {
        const key = `${flow}/${method}/${stage}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      },
      untracked: () => untracked++,
    },
    abandonAfterMs,
    maxOpenFlows,
    now: () => clock,
  });
  return {
    funnel,
    counts: () => Object.fromEntries([...counts].sort()),
    untracked: () => untracked,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe('the sign-in funnel', () => {
  it('counts each stage of a hosted email-code sign-in once, with the method it used', () => {
    const h = harness();
    for (const e of [
      event('f1', 'auth_start_oidc', { flowType: 'authentication', status: 'incomplete' }),
      event('f1', 'desktop_login_page'),
      event('f1', 'email_verification_failure', { failureReason: 'wrong code' }),
      event('f1', 'email_verification_success', { authMethodType: 'email_otp', userId: 'u1' }),
      event('f1', 'desktop_consent', { consentDecision: 'approve' }),
      event('f1', 'auth_complete', { status: 'success', userAlias: 'alice' }),
      event('f1', 'rp_feedback_provided', { userAlias: 'alice' }),
    ])
      h.funnel.observe(e);
    assert.deepEqual(h.counts(), {
      'authentication/email_otp/completed': 1,
      'authentication/email_otp/consented': 1,
      'authentication/email_otp/proven': 1,
      'authentication/none/identified': 1,
      'authentication/none/started': 1,
    });
    assert.equal(h.funnel.open, 0);
  });

  it('counts a failure, and a flow quiet for abandonAfterMs without completion as abandoned once', () => {
    const h = harness(1000);
    h.funnel.observe(event('f2', 'auth_start_oidc'));
    h.funnel.observe(event('f2', 'device_auth', { authMethodType: 'fido2', status: 'failure' }));
    h.advance(500);
    h.funnel.observe(event('f3', 'auth_start_oidc'));
    h.advance(600);
    assert.equal(h.funnel.sweep(), 1, 'f2 is 1100 ms quiet, f3 600 ms');
    h.advance(500);
    assert.equal(h.funnel.sweep(), 1);
    assert.equal(h.funnel.sweep(), 0);
    // A late or redelivered event of an abandoned flow opens nothing again.
    h.funnel.observe(event('f2', 'auth_start_oidc'));
    assert.deepEqual(h.counts(), {
      'authentication/fido2/abandoned': 1,
      'authentication/fido2/failed': 1,
      'authentication/fido2/identified': 1,
      'authentication/none/abandoned': 1,
      'authentication/none/started': 2,
    });
  });

  it('follows only flows it saw start, labels CIBA by flow type, and bounds unknown labels', () => {
    const h = harness();
    h.funnel.observe(event('f4', 'auth_complete', { status: 'success' }));
    h.funnel.observe(event('f5', 'auth_start_native', { flowType: 'ciba' }));
    h.funnel.observe(
      event('f5', 'auth_native_complete', { status: 'success', authMethodType: 'carrier_pigeon' }),
    );
    h.funnel.observe(event('f6', 'auth_start_oidc', { flowType: 'something_new' }));
    assert.deepEqual(h.counts(), {
      'ciba/none/started': 1,
      'ciba/other/completed': 1,
      'other/none/started': 1,
    });
  });

  it('holds at most maxOpenFlows flows, dropping the quietest and counting it as untracked', () => {
    const h = harness(1000, 2);
    for (const id of ['a', 'b', 'c']) h.funnel.observe(event(id, 'auth_start_oidc'));
    assert.equal(h.funnel.open, 2);
    assert.equal(h.untracked(), 1);
  });

  it('drops the flow whose latest event is oldest, not the one that started first', () => {
    const h = harness(1000, 3);
    for (const id of ['a', 'b', 'c']) h.funnel.observe(event(id, 'auth_start_oidc'));
    h.funnel.observe(event('a', 'desktop_login_page')); // a is now the latest: b is the quietest
    h.funnel.observe(event('d', 'auth_start_oidc'));
    assert.equal(h.untracked(), 1);
    // b is no longer followed: its proof counts nothing; a's, c's and d's do.
    for (const id of ['a', 'b', 'c', 'd'])
      h.funnel.observe(event(id, 'email_verification_success', { authMethodType: 'email_otp' }));
    assert.equal(h.counts()['authentication/email_otp/proven'], 3);
    h.funnel.observe(event('e', 'auth_start_oidc')); // the quietest now: a (its proof came before c's and d's)
    assert.equal(h.untracked(), 2);
    h.funnel.observe(event('a', 'auth_complete', { status: 'success' }));
    assert.equal(h.counts()['authentication/email_otp/completed'], undefined);
    h.funnel.observe(event('c', 'auth_complete', { status: 'success' }));
    assert.equal(h.counts()['authentication/email_otp/completed'], 1);
  });

  it('ignores a redelivered start of the last maxOpenFlows closed flows, and only of those', () => {
    const h = harness(1000, 2);
    for (const id of ['x', 'y', 'z']) {
      h.funnel.observe(event(id, 'auth_start_oidc'));
      h.funnel.observe(event(id, 'auth_complete', { status: 'success' }));
    }
    h.funnel.observe(event('y', 'auth_start_oidc'));
    h.funnel.observe(event('z', 'auth_start_oidc'));
    assert.equal(h.funnel.open, 0, 'y and z are among the last two closed');
    h.funnel.observe(event('x', 'auth_start_oidc'));
    assert.equal(h.funnel.open, 1, 'x was closed before them and is forgotten: its start opens it again');
    assert.equal(h.counts()['authentication/none/started'], 4);
  });

  it('sweeps the quiet flows in the order of their latest events, after many events of a few', () => {
    const h = harness(1000, 100);
    for (const id of ['p', 'q']) h.funnel.observe(event(id, 'auth_start_oidc'));
    for (let i = 0; i < 50_000; i++) h.funnel.observe(event(i % 2 ? 'p' : 'q', 'desktop_login_page'));
    assert.equal(h.funnel.open, 2);
    h.advance(500);
    h.funnel.observe(event('q', 'desktop_login_page'));
    h.advance(600);
    assert.equal(h.funnel.sweep(), 1, 'p is 1100 ms quiet, q 600 ms');
    assert.equal(h.funnel.open, 1);
    h.advance(1000);
    assert.equal(h.funnel.sweep(), 1);
    assert.equal(h.funnel.open, 0);
    assert.equal(h.counts()['authentication/none/abandoned'], 2);
  });

  it('labels only the listed apps with their id, every other app as other', () => {
    const apps: string[] = [];
    const funnel = createSigninFunnel({
      counters: { stage: ({ app }) => apps.push(app), untracked: () => {} },
      apps: ['a-listed'],
    });
    funnel.observe(event('g1', 'auth_start_oidc', { appId: 'a-listed' }));
    funnel.observe(event('g2', 'auth_start_oidc', { appId: 'a-tenant-made-up' }));
    assert.deepEqual(apps, ['a-listed', 'other']);
    const many = Array.from({ length: 21 }, (_, i) => `app-${i}`);
    assert.throws(
      () => createSigninFunnel({ counters: { stage: () => {}, untracked: () => {} }, apps: many }),
      /at most 20 apps/,
    );
  });

  it('maps each event to its stages', () => {
    const of = (action: string, facts: Partial<FlowEventFacts> = {}): FunnelStage[] =>
      stagesOf(event('x', action, facts));
    assert.deepEqual(of('auth_start_ama'), ['started']);
    assert.deepEqual(of('biometric_verification_success', { authMethodType: 'fido2' }), [
      'identified',
      'proven',
    ]);
    assert.deepEqual(of('device_auth', { status: 'suspected' }), ['identified', 'failed']);
    assert.deepEqual(of('ama_consent', { consentDecision: 'reject' }), []);
    assert.deepEqual(of('restricted_location', { status: 'blocked' }), ['failed']);
    assert.deepEqual(of('auth_complete', { status: 'failure' }), ['failed']);
  });
});
