import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { sha256 } from '@sesame/platform';
import { secretMatches } from './secret-matches';

describe('secretMatches', () => {
  const decoy = sha256('decoy');

  it('matches the secret whose sha256 is stored, and nothing else', () => {
    assert.equal(secretMatches('s3cret', sha256('s3cret'), decoy), true);
    assert.equal(secretMatches('other', sha256('s3cret'), decoy), false);
  });

  it('never matches without a stored hash, not even the decoy’s secret, nor an empty secret', () => {
    assert.equal(secretMatches('decoy', undefined, decoy), false);
    assert.equal(secretMatches('', sha256(''), decoy), false);
  });
});
