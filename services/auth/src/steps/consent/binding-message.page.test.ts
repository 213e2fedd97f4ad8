import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { fullViews } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

const renderer = createPageRenderer();
const view = fullViews.consent;
const messageClass = (html: string) =>
  /<p class="([^"]*)">Please confirm your transfer\.<\/p>/.exec(html)?.[1];

describe('consent page: a CIBA binding_message', () => {
  it('is shown in large type (binding-message) when the message is CIBA’s binding_message', () => {
    assert.equal(
      messageClass(renderer.render('consent', 'en', { ...view, bindingMessage: true })),
      'message binding-message',
    );
  });

  it('an RP’s svc_custom_message stays ordinary text', () => {
    assert.equal(messageClass(renderer.render('consent', 'en', view)), 'message');
  });
});
