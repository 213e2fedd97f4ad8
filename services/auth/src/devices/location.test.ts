import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  LOCATION_SOURCE,
  type LocationLookup,
  closeLocationLookup,
  locationDatabaseFiles,
  openLocationLookup,
} from './location';

// What the pinned DB-IP city lite database (services/auth/package.json) says about well-known addresses
// whose country has not moved in years. A database update that moves one is a real change: check it.
describe('location lookup (DB-IP city lite)', () => {
  let locations: LocationLookup;
  beforeAll(async () => {
    locations = await openLocationLookup();
  });
  afterAll(() => {
    closeLocationLookup();
  });

  it('names its source dbip-city-lite and finds both database files through the package', () => {
    assert.equal(LOCATION_SOURCE, 'dbip-city-lite');
    assert.equal(locations.source, 'dbip-city-lite');
    const files = locationDatabaseFiles();
    assert.match(files.ipv4, /@ip-location-db[/\\]dbip-city-mmdb[/\\]dbip-city-ipv4\.mmdb$/);
    assert.match(files.ipv6, /@ip-location-db[/\\]dbip-city-mmdb[/\\]dbip-city-ipv6\.mmdb$/);
  });

  it('8.8.8.8 is Mountain View, California, US at 37.422,-122.085 (lat/lng numbers, 4 decimals)', () => {
    assert.deepEqual(locations.lookup('8.8.8.8'), {
      lat: 37.422,
      lng: -122.085,
      city: 'Mountain View',
      country: 'US',
      state: 'California',
      source: 'dbip-city-lite',
    });
  });

  it('public IPv4 addresses land in their countries: 1.1.1.1 AU, 81.2.69.142 GB, 193.0.6.139 NL, 133.11.0.1 JP', () => {
    const countries = ['1.1.1.1', '81.2.69.142', '193.0.6.139', '133.11.0.1'].map(
      (ip) => locations.lookup(ip)?.country,
    );
    assert.deepEqual(countries, ['AU', 'GB', 'NL', 'JP']);
  });

  it('public IPv6 addresses are looked up in the IPv6 file: RIPE NCC 2001:67c:2e8:22::c100:68b NL, WIDE 2001:200::1 JP', () => {
    assert.equal(locations.lookup('2001:67c:2e8:22::c100:68b')?.country, 'NL');
    assert.equal(locations.lookup('2001:200::1')?.country, 'JP');
  });

  it('an IPv4-mapped IPv6 address gives what its IPv4 address gives', () => {
    assert.deepEqual(locations.lookup('::ffff:8.8.8.8'), locations.lookup('8.8.8.8'));
    assert.equal(locations.lookup('::ffff:101:101')?.country, 'AU');
  });

  it('loopback, private and link-local addresses give undefined', () => {
    for (const ip of [
      '127.0.0.1',
      '::1',
      '10.0.0.1',
      '192.168.0.10',
      '172.20.1.1',
      'fd00::1',
      'fe80::1',
      '169.254.1.1',
    ]) {
      assert.equal(locations.lookup(ip), undefined, ip);
    }
  });

  it('mapped loopback and mapped private addresses give undefined', () => {
    assert.equal(locations.lookup('::ffff:127.0.0.1'), undefined);
    assert.equal(locations.lookup('::ffff:192.168.1.1'), undefined);
  });

  it('garbage gives undefined and never throws', () => {
    for (const ip of ['', 'not an ip', '999.1.1.1', '1.2.3', '::ffff:999.1.1.1', 'x'.repeat(10_000)]) {
      assert.equal(locations.lookup(ip), undefined, ip.slice(0, 20));
    }
    assert.equal(locations.lookup(undefined as unknown as string), undefined);
  });

  it('opening again in the same process gives the same lookup (the files are read once)', async () => {
    assert.equal(await openLocationLookup(), locations);
  });
});

describe('closeLocationLookup', () => {
  it('makes an open lookup answer undefined, and the next open reads the files again', async () => {
    const first = await openLocationLookup();
    closeLocationLookup();
    assert.equal(first.lookup('8.8.8.8'), undefined);
    const second = await openLocationLookup();
    assert.notEqual(second, first);
    assert.equal(second.lookup('8.8.8.8')?.country, 'US');
    closeLocationLookup();
  });
});
