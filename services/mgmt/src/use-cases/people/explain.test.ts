import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { errorCodes, flowActions } from '@sesame/flow-events';
import { CONSOLE_LOCALES, consoleCatalogs } from '../../i18n';
import type { FlowRecord } from '../../support/port';
import { explainAction, explainErrorCode, explainOutcome, explainTimeline } from './explain';

const event = (n: number, action: string, clientIp = '203.0.113.9') => ({
  id: `e${n}`,
  timestamp: 1000 + n,
  payload: { flowId: 'f1', details: { action, clientIp } },
});
const flow = (over: Partial<FlowRecord>, actions: string[]): FlowRecord => ({
  id: 'f1',
  timestamp: 1000,
  applicationId: 'app1',
  events: actions.map((a, i) => event(i, a)),
  ...over,
});
/** The English outcome of a flow with these facts and actions. */
const outcome = (over: Partial<FlowRecord>, actions: string[]) => explainOutcome('en', flow(over, actions));

describe('support: outcomes in words', () => {
  it('every action and errorCode of spec 2.4 has a sentence in every console language', () => {
    assert.ok(flowActions.length >= 36, 'the spec vocabulary lists every action');
    for (const locale of CONSOLE_LOCALES) {
      for (const action of flowActions) {
        const text = consoleCatalogs[locale][`action.${action}`];
        assert.ok(text && !text.includes(action), `${locale}: action ${action} has no sentence`);
        assert.equal(explainAction(locale, action), text);
      }
      for (const code of errorCodes) {
        const text = consoleCatalogs[locale][`errorCode.${code}`];
        assert.ok(text, `${locale}: errorCode ${code} has no sentence`);
        assert.equal(explainErrorCode(locale, code), text);
      }
    }
  });

  it('an action outside the spec says which one it was; an unknown errorCode has no sentence', () => {
    assert.equal(explainAction('en', 'made_up'), 'Recorded step made_up.');
    assert.equal(explainErrorCode('en', 'made_up'), undefined);
  });

  it('five wrong codes that killed the code', () => {
    const failed = flow(
      {
        status: 'failure',
        errorCode: 'auth_failure',
        failureReason: 'email code expired or tried too often',
      },
      ['auth_start_oidc', 'desktop_login_page', ...Array(5).fill('email_verification_failure')],
    );
    assert.equal(explainOutcome('en', failed), 'Wrong code entered 5 times; the code was invalidated');
    assert.equal(
      explainOutcome('de', failed),
      '5-mal falscher Code eingegeben; der Code wurde ungültig gemacht',
    );
  });

  it('blocked from a blocked country names the country; a blocked device says so', () => {
    assert.equal(
      outcome({ status: 'blocked', failureReason: 'sign-in from a blocked country (RU)' }, [
        'auth_start_oidc',
        'restricted_location',
      ]),
      'Blocked: sign-in from a blocked country (RU)',
    );
    assert.equal(
      outcome({ status: 'blocked' }, ['auth_start_oidc', 'device_blocked_rejection']),
      'Blocked: this device is blocked for the person',
    );
  });

  it('a flow nobody finished: abandoned at the step of its last event', () => {
    assert.equal(
      outcome({ status: 'incomplete' }, ['auth_start_oidc', 'desktop_login_page']),
      'Abandoned at the email step',
    );
    assert.equal(
      outcome({}, ['auth_start_oidc', 'desktop_login_page', 'new_qr_generated']),
      'Abandoned at the QR code step',
    );
  });

  it('success names the method; consent rejected; other failures give their reason', () => {
    assert.equal(
      outcome({ status: 'success', authMethodType: 'fido2' }, ['auth_complete']),
      'Signed in with a passkey',
    );
    assert.equal(
      outcome({ status: 'failure', errorCode: 'Consent_screen_rejected' }, ['desktop_consent']),
      'Rejected on the consent screen',
    );
    assert.equal(
      outcome({ status: 'failure', failureReason: 'the QR code was not opened on a phone in time' }, [
        'device_auth',
      ]),
      'Failed: the QR code was not opened on a phone in time',
    );
  });

  it('the timeline is oldest first, each action in words with its IP', () => {
    const f = flow({}, ['auth_start_oidc', 'desktop_login_page']);
    f.events.reverse();
    assert.deepEqual(
      explainTimeline('en', f).map((e) => [e.action, e.sentence, e.clientIp]),
      [
        ['auth_start_oidc', 'An application started a sign-in in the browser.', '203.0.113.9'],
        ['desktop_login_page', 'Saw the sign-in page (the email step).', '203.0.113.9'],
      ],
    );
  });
});
