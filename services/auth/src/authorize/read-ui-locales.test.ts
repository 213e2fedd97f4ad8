import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { parse } from './authorize-test-support';

describe('ui_locales', () => {
  it('keeps well-formed tags in order, canonicalized and once each', async () => {
    const { request } = await parse({ ui_locales: 'de-de  fr en de-DE zh-Hant-TW' });
    assert.deepEqual(request.uiLocales, ['de-DE', 'fr', 'en', 'zh-Hant-TW']);
  });

  it('drops malformed tags instead of failing', async () => {
    const { request } = await parse({ ui_locales: 'not_a_tag! de <x> 123456789' });
    assert.deepEqual(request.uiLocales, ['de']);
  });

  it('keeps at most the first ten tags', async () => {
    const tags = ['en', 'de', 'fr', 'it', 'es', 'nl', 'pt', 'pl', 'sv', 'da', 'fi'];
    const { request } = await parse({ ui_locales: tags.join(' ') });
    assert.deepEqual(request.uiLocales, tags.slice(0, 10));
  });
});
