import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from '@jest/globals';
import { configSchema as activityLog } from '../../services/activity-log/src/config';
import { configSchema as auth } from '../../services/auth/src/config';
import { configRows, referencePath, renderConfigReference, typeOf } from './config-reference';

/** Issue 39: the operators' configuration reference is generated from the config schemas, never kept by hand. */
describe('docs/config-reference.md', () => {
  it('is what `npm run docs:config` generates from the schemas (not stale)', () => {
    assert.equal(
      readFileSync(referencePath, 'utf8'),
      renderConfigReference(),
      'docs/config-reference.md is stale: run npm run docs:config',
    );
  });

  it('has a row for every variable with who reads it, its type, default and a description', () => {
    const reference = readFileSync(referencePath, 'utf8');
    const rows = configRows().flatMap((s) => s.rows);
    assert.ok(rows.length > 90, `${rows.length} variables`);
    for (const row of rows) {
      assert.ok(row.description.length > 10, `${row.name} has a description`);
      assert.ok(
        reference.includes(
          `| \`${row.name}\` | ${row.readers.length === 6 ? 'all six' : row.readers.join(', ')} |`,
        ),
        row.name,
      );
    }
    assert.match(reference, /\| `SESAME_CODE_TTL_S` \| token \| integer ≥ 1 \| `60` \|/);
    assert.match(reference, /\| `HTTP_PORT` \| all six \| integer 0–65535 \| auth: `8081`<br>token: `8082`/);
    assert.match(reference, /\| `SESAME_STORES` \| `embedded`, `memory` \| `embedded` \|/);
  });

  it('never spells out a development-only secret', () => {
    const reference = readFileSync(referencePath, 'utf8');
    assert.match(
      reference,
      /\| `SESAME_KEY_ENCRYPTION_KEY` \| jwks \| string \| a development-only value \(refused in production\) \|/,
    );
    assert.doesNotMatch(reference, /dev-only|ZGV2/);
  });

  it('names a type from the schema: enums, bounded integers, URLs, minimum lengths', () => {
    assert.equal(typeOf(auth.shape.SESAME_REQUIRE_PAR), '`true`, `false`');
    assert.equal(typeOf(auth.shape.SESAME_FLOW_TTL_S), 'integer ≥ 1');
    assert.equal(typeOf(activityLog.shape.SESAME_ACTIVITY_BATCH_SIZE), 'integer 1–10000');
    assert.equal(typeOf(auth.shape.SESAME_AUTH_URL), 'URL');
    assert.equal(typeOf(auth.shape.SESAME_CODE_HASH_KEY), 'string, at least 32 characters');
  });
});
