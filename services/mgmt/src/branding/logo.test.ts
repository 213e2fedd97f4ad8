import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MAX_LOGO_BYTES, checkLogo } from './logo';
import { sanitizeSvg } from './svg-sanitize';

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size: number) => Buffer.concat([PNG_HEAD, Buffer.alloc(size - PNG_HEAD.length, 7)]);
const svg = (inner: string, attrs = '') =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" ${attrs}>${inner}</svg>`);
const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  assert.fail('expected a refusal');
};

describe('logo checks (hostile first)', () => {
  it('refuses a "PNG" that is HTML, naming the signature', () => {
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    assert.match(
      message(() => checkLogo('image/png', html)),
      /not a PNG image/,
    );
  });

  it('refuses 65 KiB and accepts exactly 64 KiB', () => {
    assert.match(
      message(() => checkLogo('image/png', png(65 * 1024))),
      /is 66560 bytes; at most 65536 bytes/,
    );
    assert.equal(checkLogo('image/png', png(MAX_LOGO_BYTES)).data.length, MAX_LOGO_BYTES);
  });

  it('refuses a WebP without its RIFF/WEBP header, an unknown type, an empty body', () => {
    assert.match(
      message(() => checkLogo('image/webp', png(100))),
      /not a WebP image/,
    );
    assert.match(
      message(() => checkLogo('text/html', png(100))),
      /type must be one of/,
    );
    assert.match(
      message(() => checkLogo('image/gif', png(100))),
      /type must be one of/,
    );
    assert.match(
      message(() => checkLogo('image/png', Buffer.alloc(0))),
      /is empty/,
    );
  });

  it('accepts a WebP by its header and hashes the bytes', () => {
    const webp = Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.alloc(4),
      Buffer.from('WEBPVP8 '),
      Buffer.alloc(20),
    ]);
    const logo = checkLogo('image/webp', webp);
    assert.equal(logo.contentType, 'image/webp');
    assert.match(logo.hash, /^[0-9a-f]{10}$/);
  });

  it('an SVG loses <script>, event handlers, external and javascript: references, foreignObject, style, image', () => {
    const hostile = svg(
      [
        '<script>alert(1)</script>',
        '<rect width="10" height="10" fill="#123456" onload="alert(2)" onclick="alert(3)"/>',
        '<a href="javascript:alert(4)"><circle r="5"/></a>',
        '<use href="https://evil.example/x.svg#a"/><use xlink:href="javascript:alert(5)"/><use href="#ok"/>',
        '<image href="https://evil.example/track.png"/>',
        '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example"></iframe></div></foreignObject>',
        '<style>@import url(https://evil.example/x.css)</style>',
        '<path d="M0 0" fill="url(https://evil.example/p)" stroke="url(#grad)"/>',
        '<set attributeName="onmouseover" to="alert(6)"/><animate attributeName="href" to="javascript:alert(7)"/>',
      ].join(''),
      'onload="alert(8)" width="40" height="40" viewBox="0 0 40 40"',
    );
    const out = checkLogo('image/svg+xml', hostile).data.toString('utf8');
    for (const bad of [
      'script',
      'onload',
      'onclick',
      'javascript:',
      'evil.example',
      'foreignObject',
      'iframe',
      'style',
      '<image',
      '<a',
      'set ',
      'animate',
    ])
      assert.ok(!out.includes(bad), `${bad} removed from ${out}`);
    assert.ok(out.includes('<rect width="10" height="10" fill="#123456">'), out);
    assert.ok(out.includes('<use href="#ok">'), 'a local reference stays');
    assert.ok(out.includes('stroke="url(#grad)"'), 'a local url() stays');
    assert.ok(
      out.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">'),
      out,
    );
  });

  it('an SVG with a DOCTYPE entity, a comment or a processing instruction keeps none of them', () => {
    const out = sanitizeSvg(
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "boom">]><!-- hi --><?xml-stylesheet href="https://evil.example/s.css"?><svg><title>&x; A&amp;B</title></svg>',
    );
    assert.ok(!/DOCTYPE|ENTITY|<!--|xml-stylesheet|evil/.test(out), out);
    assert.ok(out.includes('<title>'), out);
  });

  it('refuses what is not an SVG document: HTML, two roots, a PNG declared as SVG', () => {
    assert.match(
      message(() => checkLogo('image/svg+xml', Buffer.from('<html><body/></html>'))),
      /root must be <svg>/,
    );
    assert.match(
      message(() => checkLogo('image/svg+xml', Buffer.from('<svg></svg><svg></svg>'))),
      /root must be <svg>/,
    );
    assert.match(
      message(() => checkLogo('image/svg+xml', png(100))),
      /not an SVG document/,
    );
  });
});
