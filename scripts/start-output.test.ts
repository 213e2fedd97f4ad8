import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
// @ts-expect-error: a plain .mjs script (npm start's), typed by its use here
import { prettyLine } from './start-output.mjs';

describe("npm start's human log lines", () => {
  it('turns a pino JSON line into time, level, service, message and the other fields', () => {
    const line = '{"level":"warn","time":"2026-11-29T15:50:01.123Z","service":"auth","msg":"slow","ms":3}';
    assert.equal(prettyLine(line), '15:50:01 WARN  auth: slow  (ms=3)');
  });

  it('keeps an error message and passes other lines (the banner) unchanged', () => {
    const line =
      '{"level":"error","time":"2026-11-29T15:50:01.123Z","service":"mgmt","msg":"failed","err":{"message":"boom"}}';
    assert.equal(prettyLine(line), '15:50:01 ERROR mgmt: failed — boom');
    assert.equal(
      prettyLine('Sesame is running on http://localhost:8080'),
      'Sesame is running on http://localhost:8080',
    );
    assert.equal(prettyLine('{not json'), '{not json');
  });
});
