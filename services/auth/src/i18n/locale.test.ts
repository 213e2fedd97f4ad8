import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { negotiateLocale } from './locale';

describe('negotiateLocale', () => {
  it('takes the first supported ui_locales entry, in the order given', () => {
    assert.equal(negotiateLocale(['ja', 'fr', 'de'], 'de'), 'fr');
  });

  it('matches a region tag by its primary subtag (de-CH is German)', () => {
    assert.equal(negotiateLocale(['de-CH'], undefined), 'de');
  });

  it('prefers ui_locales over Accept-Language', () => {
    assert.equal(negotiateLocale(['de'], 'fr'), 'de');
  });

  it('falls back to Accept-Language by q value when ui_locales has nothing supported', () => {
    assert.equal(negotiateLocale(['ja'], 'ja;q=1, de;q=0.5, fr-FR;q=0.8'), 'fr');
  });

  it('keeps header order among equal q values and skips q=0 and *', () => {
    assert.equal(negotiateLocale([], '*, fr;q=0, de-AT, en'), 'de');
  });

  it('is English when nothing matches or nothing is given', () => {
    assert.equal(negotiateLocale(['ja'], 'zh-CN, ko;q=0.5'), 'en');
    assert.equal(negotiateLocale([], undefined), 'en');
  });
});
