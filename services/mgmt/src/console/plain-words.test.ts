import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { authMethodTypes, flowStatuses, flowTypes } from '@sesame/flow-events';
import { adminActivity } from '../events/admin-events';
import { CONSOLE_LOCALES } from '../i18n';
import { deviceText, knownParts } from '../use-cases/people/summary';
import { type WordKind, plainWords } from './plain-words';

const known: [WordKind, readonly string[]][] = [
  ['event', Object.values(adminActivity)],
  ['method', authMethodTypes],
  ['flowType', flowTypes],
  ['status', flowStatuses],
];

describe('words, not identifiers', () => {
  it('every admin event type, sign-in method, flow type and status has plain words in every language', () => {
    for (const locale of CONSOLE_LOCALES)
      for (const [kind, values] of known)
        for (const raw of values) {
          const { label } = plainWords(locale, kind, raw);
          assert.notEqual(label, raw, `${locale} ${kind} ${raw}`);
          assert.doesNotMatch(label, /_/, `${locale} ${kind} ${raw}: no identifier left in "${label}"`);
        }
  });

  it('says administrator_enter_tenant and email_otp as people do; an unknown value is shown as it is', () => {
    assert.equal(
      plainWords('en', 'event', 'administrator_enter_tenant').label,
      'Administrator opened the tenant',
    );
    assert.equal(plainWords('en', 'method', 'email_otp').label, 'Email code');
    assert.deepEqual(plainWords('en', 'event', 'administrator_future_thing'), {
      label: 'administrator_future_thing',
      raw: 'administrator_future_thing',
    });
  });

  it('a device leaves out what its user agent did not say, never "Unknown"', () => {
    assert.equal(knownParts('Chrome 156 on Linux Unknown'), 'Chrome 156 on Linux');
    assert.equal(knownParts('Unknown on Linux'), 'Linux');
    assert.equal(knownParts('Chrome 156 on Unknown'), 'Chrome 156');
    assert.equal(knownParts('Linux Unknown, Chrome 156'), 'Linux, Chrome 156');
    assert.equal(knownParts('Unknown'), '');
    assert.equal(
      deviceText({ browserType: 'Chrome', browserVersion: '156', osType: 'Linux', osVersion: 'Unknown' }, ''),
      'Chrome 156 on Linux',
    );
    assert.equal(
      deviceText({ detectedName: 'Unknown', osType: 'Unknown' }, 'Linux Unknown, Chrome 156'),
      'Linux, Chrome 156',
    );
  });
});
