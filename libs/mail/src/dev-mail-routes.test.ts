import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import express from 'express';
import { devMailRouter } from './dev-mail-routes';
import { DevOutbox } from './dev-outbox';

const hostile = {
  to: 'eve@example.com',
  subject: '<script>alert("subject")</script>',
  text: '</pre><img src=x onerror=alert(1)> see https://auth.example/magic?x=1&y="2"',
  html: '<p onclick="x()">hi</p><script>alert("body")</script>"\'&',
};

describe('devMailRouter', () => {
  const outbox = new DevOutbox({ now: () => new Date('2026-03-04T05:06:07.000Z') });
  let server: ReturnType<express.Express['listen']>;
  let base: string;
  beforeAll(async () => {
    const app = express().use(devMailRouter(outbox));
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await outbox.send({ to: 'a@example.com', subject: 'first', text: 'one', html: '<p>one</p>' });
    await outbox.send(hostile);
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('GET /dev/mail.json lists every message newest first with exactly the six fields, not cached', async () => {
    const res = await fetch(`${base}/dev/mail.json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as { messages: Array<Record<string, unknown>> };
    assert.deepEqual(Object.keys(body), ['messages']);
    const [newest, oldest] = outbox.list();
    assert.deepEqual(body.messages, [
      { id: newest?.id, ...hostile, sentAt: '2026-03-04T05:06:07.000Z' },
      {
        id: oldest?.id,
        to: 'a@example.com',
        subject: 'first',
        text: 'one',
        html: '<p>one</p>',
        sentAt: '2026-03-04T05:06:07.000Z',
      },
    ]);
  });

  it('GET /dev/mail.json?to= lists only the messages to that address, in any letter case', async () => {
    const res = await fetch(`${base}/dev/mail.json?to=A%40Example.com`);
    const body = (await res.json()) as { messages: Array<Record<string, unknown>> };
    assert.deepEqual(
      body.messages.map((m) => [m.to, m.subject]),
      [['a@example.com', 'first']],
    );
    const none = (await (await fetch(`${base}/dev/mail.json?to=nobody%40example.com`)).json()) as {
      messages: unknown[];
    };
    assert.deepEqual(none.messages, []);
  });

  it('GET /dev/mail answers an HTML page, not cached, with no script and no inline style', async () => {
    const res = await fetch(`${base}/dev/mail`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const page = await res.text();
    assert.match(page, /^<!doctype html>\n<html lang="en">/);
    assert.match(page, /<title>Development outbox \(2\)<\/title>/);
    // the hostile content is there only as escaped text: no element or attribute that could run or style
    assert.doesNotMatch(page, /<script|<style|\sstyle="|\son[a-z]+="/i);
  });

  it('GET /dev/mail escapes a hostile subject and text body and shows the HTML body only in a sandboxed srcdoc iframe', async () => {
    const page = await (await fetch(`${base}/dev/mail`)).text();
    assert.ok(page.includes('<h2 id="mail-0">&lt;script&gt;alert(&quot;subject&quot;)&lt;/script&gt;</h2>'));
    assert.ok(
      page.includes(
        '<pre>&lt;/pre&gt;&lt;img src=x onerror=alert(1)&gt; see <a href="https://auth.example/magic?x=1&amp;y=">https://auth.example/magic?x=1&amp;y=</a>&quot;2&quot;</pre>',
      ),
    );
    assert.ok(
      page.includes(
        '<iframe sandbox="" srcdoc="&lt;p onclick=&quot;x()&quot;&gt;hi&lt;/p&gt;&lt;script&gt;alert(&quot;body&quot;)&lt;/script&gt;&quot;&#39;&amp;" title="HTML body of: &lt;script&gt;alert(&quot;subject&quot;)&lt;/script&gt;"',
      ),
    );
  });

  it('GET /dev/mail with an empty outbox says there is no mail yet', async () => {
    const app = express().use(devMailRouter(new DevOutbox()));
    const empty = app.listen(0, '127.0.0.1');
    await new Promise((r) => empty.once('listening', r));
    try {
      const page = await (
        await fetch(`http://127.0.0.1:${(empty.address() as AddressInfo).port}/dev/mail`)
      ).text();
      assert.match(page, /<p>No mail yet\./);
      assert.doesNotMatch(page, /<article/);
    } finally {
      await new Promise<void>((r) => empty.close(() => r()));
    }
  });
});
