import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { publicAddress } from './ip-address';

describe('publicAddress', () => {
  it('a public IPv4 address is looked up as itself', () => {
    assert.deepEqual(publicAddress('8.8.8.8'), { family: 4, address: '8.8.8.8' });
    assert.deepEqual(publicAddress(' 81.2.69.142 '), { family: 4, address: '81.2.69.142' });
  });

  it('a public IPv6 address is looked up as itself, without a zone', () => {
    assert.deepEqual(publicAddress('2001:4860:4860::8888'), { family: 6, address: '2001:4860:4860::8888' });
    assert.deepEqual(publicAddress('2a00:1450:4001:82a::200e%eth0'), {
      family: 6,
      address: '2a00:1450:4001:82a::200e',
    });
  });

  it('an IPv4-mapped IPv6 address (as a dual-stack socket reports IPv4 peers) is its IPv4 address', () => {
    assert.deepEqual(publicAddress('::ffff:8.8.8.8'), { family: 4, address: '8.8.8.8' });
    assert.deepEqual(publicAddress('::FFFF:808:808'), { family: 4, address: '8.8.8.8' });
    assert.deepEqual(publicAddress('0:0:0:0:0:ffff:0101:0101'), { family: 4, address: '1.1.1.1' });
  });

  it('loopback, private, shared (CGNAT), link-local, documentation, multicast and unspecified IPv4: none', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '192.0.2.10',
      '198.51.100.7',
      '203.0.113.9',
      '198.18.0.1',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '0.0.0.0',
    ]) {
      assert.equal(publicAddress(ip), undefined, ip);
    }
  });

  it('the neighbours of private ranges are public (172.15.x, 172.32.x, 100.128.x)', () => {
    for (const ip of ['172.15.255.255', '172.32.0.1', '100.128.0.1', '11.0.0.1']) {
      assert.deepEqual(publicAddress(ip), { family: 4, address: ip }, ip);
    }
  });

  it('loopback, unspecified, unique-local, link-local, multicast and documentation IPv6: none', () => {
    for (const ip of [
      '::1',
      '::',
      'fd12:3456::1',
      'fc00::1',
      'fe80::1%lo0',
      'febf::1',
      'ff02::1',
      '2001:db8::1',
    ]) {
      assert.equal(publicAddress(ip), undefined, ip);
    }
  });

  it('a mapped private address is private: ::ffff:127.0.0.1 and ::ffff:10.0.0.1 give none', () => {
    assert.equal(publicAddress('::ffff:127.0.0.1'), undefined);
    assert.equal(publicAddress('::ffff:a00:1'), undefined);
  });

  it('garbage gives none and never throws', () => {
    for (const ip of [
      '',
      'localhost',
      '8.8.8',
      '8.8.8.256',
      '08.8.8.8',
      '1:2:3',
      ':::',
      '[2001:4860:4860::8888]',
      'x'.repeat(10_000),
      undefined as unknown as string,
      12 as unknown as string,
    ]) {
      assert.equal(publicAddress(ip), undefined, String(ip).slice(0, 20));
    }
  });
});
