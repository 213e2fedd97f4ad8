import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { assertInvalidRequest, parse, testClient, testDeps } from './authorize-test-support';

const LINK = 'https://rp.example/help/sign-in/';
const MUST_BE_HTTPS = 'svc_aux_link must be an https:// URL ending with /';

describe('svc_aux_link and svc_aux_link_title', () => {
  it('returns a link under the prefix with its title', async () => {
    const { request } = await parse({ svc_aux_link: LINK, svc_aux_link_title: 'Need help?' });
    assert.deepEqual(request.auxLink, { url: LINK, title: 'Need help?' });
  });

  it('returns a link without a title', async () => {
    assert.deepEqual((await parse({ svc_aux_link: LINK })).request.auxLink, { url: LINK });
  });

  it.each([
    [
      'refuses a link that is not https or does not end with / (invalid_request)',
      ['http://rp.example/help/x/', 'https://rp.example/help/x', 'https://rp.example/help/x/#/'],
    ],
    [
      'refuses a link that a URL parser would rewrite (dot segments), so the prefix cannot be escaped',
      ['https://rp.example/help/../admin/', 'https://RP.example/help/x/', 'https://rp.example/help/%2e%2e/'],
    ],
  ])('%s', async (_title, links) => {
    for (const link of links) await assertInvalidRequest({ svc_aux_link: link }, MUST_BE_HTTPS);
  });

  it('refuses a link outside the configured prefix (invalid_request)', async () => {
    await assertInvalidRequest(
      { svc_aux_link: 'https://rp.example/other/' },
      'svc_aux_link must start with the prefix configured for this client',
    );
  });

  it('refuses any link when the client has no prefix configured (invalid_request)', async () => {
    await assertInvalidRequest(
      { svc_aux_link: LINK },
      'svc_aux_link is not allowed: no prefix is configured for this client',
      testDeps({ clients: [testClient({ auxLinkPrefix: '' })] }),
    );
  });

  it('refuses a link longer than 2000 characters (invalid_request)', async () => {
    await assertInvalidRequest(
      { svc_aux_link: `${LINK}${'a'.repeat(2000)}/` },
      'svc_aux_link must be at most 2000 characters',
    );
  });

  it('refuses a title without a link (invalid_request)', async () => {
    await assertInvalidRequest({ svc_aux_link_title: 'Help' }, 'svc_aux_link_title requires svc_aux_link');
  });

  it('refuses a title longer than 100 characters (invalid_request)', async () => {
    await parse({ svc_aux_link: LINK, svc_aux_link_title: 'é'.repeat(100) });
    await assertInvalidRequest(
      { svc_aux_link: LINK, svc_aux_link_title: 'é'.repeat(101) },
      'svc_aux_link_title must be at most 100 characters',
    );
  });
});

describe('svc_custom_message', () => {
  it('returns the message as given', async () => {
    const { request } = await parse({ svc_custom_message: 'Confirm your 50 € transfer' });
    assert.equal(request.customMessage, 'Confirm your 50 € transfer');
  });

  it('refuses a message longer than 500 characters (invalid_request)', async () => {
    await parse({ svc_custom_message: '€'.repeat(500) });
    await assertInvalidRequest(
      { svc_custom_message: '€'.repeat(501) },
      'svc_custom_message must be at most 500 characters',
    );
  });
});
