import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { OutboundRefused, STRICT_OUTBOUND, checkOutboundUrl, classifyAddress } from './outbound';
import { postToRegisteredUrl } from './outbound-post';

const DEV = { allowHttp: true, allowLoopback: true };
const refused = (url: string, policy = STRICT_OUTBOUND) =>
  assert.throws(() => checkOutboundUrl(url, policy), OutboundRefused, url);

// Issue 26 finding 4: every one of these was accepted and pinged.
describe('checkOutboundUrl', () => {
  it.each([
    'https://127.0.0.1/ping',
    'https://127.1/ping',
    'https://2130706433/ping',
    'https://0x7f000001/ping',
    'https://017700000001/ping',
    'https://localhost/ping',
    'https://app.localhost/ping',
    'https://[::1]/ping',
    'https://[::ffff:127.0.0.1]/ping',
    'https://[::ffff:7f00:1]/ping',
  ])('refuses loopback %s unless loopback is allowed', (url) => {
    refused(url);
    assert.equal(checkOutboundUrl(url, DEV).href, new URL(url).href);
  });

  it.each([
    'https://169.254.169.254/latest/meta-data/',
    'https://2852039166/latest',
    'https://[::ffff:169.254.169.254]/',
    'https://[fd00:ec2::254]/',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://metadata.google.internal./computeMetadata/v1/',
    'https://METADATA.GOOGLE.INTERNAL/',
    'https://metadata/',
    'https://instance-data/',
    'https://10.0.0.1/',
    'https://10.1/',
    'https://172.16.5.4/',
    'https://192.168.1.1/',
    'https://100.64.0.1/',
    'https://[fd00::1]/',
    'https://[fc00::1]/',
    'https://[fe80::1]/',
    'https://[ff02::1]/',
    'https://224.0.0.1/',
    'https://0.0.0.0/',
    'https://0/',
    'https://[::]/',
    'https://255.255.255.255/',
    'https://[64:ff9b::a00:1]/',
    'https://[2002:a00:1::]/',
  ])('refuses %s everywhere, even with loopback allowed', (url) => {
    refused(url);
    refused(url, DEV);
  });

  it('refuses userinfo, fragments, other schemes and http outside development', () => {
    refused('https://user:pw@rp.example/ping', DEV);
    refused('https://user@rp.example/ping', DEV);
    refused('https://rp.example/ping#x', DEV);
    refused('ftp://rp.example/ping', DEV);
    refused('not a url', DEV);
    refused('http://rp.example/ping');
    assert.equal(checkOutboundUrl('http://rp.example/ping', DEV).host, 'rp.example');
  });

  it('accepts https to public names and addresses', () => {
    for (const url of ['https://rp.example/ping', 'https://93.184.216.34/x', 'https://[2606:4700::1111]/x'])
      assert.equal(checkOutboundUrl(url, STRICT_OUTBOUND).href, new URL(url).href);
  });

  it('classifies addresses of every notation', () => {
    assert.equal(classifyAddress('8.8.8.8'), 'public');
    assert.equal(classifyAddress('127.0.0.2'), 'loopback');
    assert.equal(classifyAddress('::1'), 'loopback');
    assert.equal(classifyAddress('::ffff:10.0.0.1'), 'refused');
    assert.equal(classifyAddress('fe80::1%eth0'), 'refused');
    assert.equal(classifyAddress('2001:4860:4860::8888'), 'public');
    assert.equal(classifyAddress('not-an-ip'), 'refused');
  });
});

describe('postToRegisteredUrl (send time)', () => {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.headers.host} ${req.url}`);
    res.writeHead(req.url === '/redirect' ? 302 : 204, { location: 'http://169.254.169.254/' }).end();
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => void server.close());
  const post = (
    url: string,
    resolver: (h: string) => Promise<{ address: string; family: number }[]>,
    policy = DEV,
  ) => postToRegisteredUrl(url, { headers: {}, body: '{}', timeoutMs: 2_000, policy, resolver });

  it('refuses a name that resolves to a private or metadata address (DNS rebinding): nothing is sent', async () => {
    for (const addresses of [
      ['10.0.0.7'],
      ['169.254.169.254'],
      ['93.184.216.34', '192.168.0.1'],
      ['fd00::1'],
    ]) {
      await assert.rejects(
        post(`http://rebind.example:${port}/ping`, async () =>
          addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
        ),
        OutboundRefused,
      );
    }
    await assert.rejects(
      post(`http://rebind.example:${port}/ping`, async () => [{ address: '127.0.0.1', family: 4 }], {
        allowHttp: true,
        allowLoopback: false,
      }),
      OutboundRefused,
    );
    assert.deepEqual(hits, []);
  });

  it('connects to the address it checked, once per request, and never follows a redirect', async () => {
    let lookups = 0;
    const resolver = async () => {
      lookups++;
      // A rebinding resolver: checked once per connection; a second answer would never be used by it.
      return lookups === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }];
    };
    assert.deepEqual(await post(`http://rp.example:${port}/ping`, resolver), { status: 204 });
    assert.deepEqual(await post(`http://127.0.0.1:${port}/redirect`, resolver), { status: 302 });
    assert.deepEqual(hits, [`rp.example:${port} /ping`, `127.0.0.1:${port} /redirect`]);
    assert.equal(lookups, 1);
  });
});
