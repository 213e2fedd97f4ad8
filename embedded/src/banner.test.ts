import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from '@jest/globals';
import { createLogger } from '@sesame/platform';
import { type StartFacts, logBanner, logFormat, prettyBanner } from './banner';

const facts: StartFacts = {
  url: 'http://localhost:8080',
  readyMs: 900,
  opsUrl: 'http://localhost:9100',
  grpcAddresses: { auth: '127.0.0.1:1', token: '127.0.0.1:2' },
  servers: [],
  dataDir: '/x/.sesame/data',
  demoFile: '/x/.sesame/demo.json',
  demoKept: true,
  outboxUrl: 'http://localhost:8080/dev/mail',
  ownerEmail: 'owner@demo.test',
};

describe('the start banner (issue 39)', () => {
  it('is human on a terminal, JSON elsewhere, and SESAME_LOG_FORMAT decides when set', () => {
    assert.equal(logFormat(undefined, true), 'pretty');
    assert.equal(logFormat(undefined, false), 'json');
    assert.equal(logFormat('json', true), 'json');
    assert.equal(logFormat('pretty', false), 'pretty');
  });

  it('names what to open next and where the secrets file is, without a secret', () => {
    const text = prettyBanner(facts);
    assert.match(text, /^Sesame is running on http:\/\/localhost:8080 \(ready in 900 ms\)$/m);
    assert.match(
      text,
      /^ {2}console: {5}http:\/\/localhost:8080\/console\/ {2}\(sign in as owner@demo\.test with an emailed code\)$/m,
    );
    assert.match(text, /^ {2}mail outbox: http:\/\/localhost:8080\/dev\/mail /m);
    assert.match(text, /next step: run `npm run example` in another terminal, open http:\/\/localhost:3000/);
    assert.match(
      text,
      /are in \/x\/\.sesame\/demo\.json \(mode 0600\);\n +npm start -- --show-secrets prints them/,
    );
    assert.match(
      text,
      /stores: embedded \(SQLite\) at \/x\/\.sesame\/data\n.*start fresh: npm start -- --fresh/,
    );
    assert.match(text, /gRPC: {6}auth=127\.0\.0\.1:1 token=127\.0\.0\.1:2\n/);
  });

  it('prints the secrets only when asked (--show-secrets)', () => {
    const secret = 'the-admin-key-0123456789';
    assert.doesNotMatch(prettyBanner(facts), /the-admin-key/);
    const text = prettyBanner({ ...facts, secrets: { adminKey: secret, clientSecret: 'cs-1' } });
    assert.match(text, /^ {4}adminKey {7}the-admin-key-0123456789$/m);
    assert.match(text, /^ {4}clientSecret {3}cs-1$/m);
  });

  it('without the demo file, says the demo credentials are not shown and names no sample app', () => {
    const text = prettyBanner({ ...facts, demoKept: false });
    assert.match(text, /demo\.json is gone: the demo credentials are not shown/);
    assert.doesNotMatch(text, /npm run example/);
  });

  it('as JSON: one info line whose message names the URL, with the same facts', () => {
    let written = '';
    const sink = new Writable({
      write(chunk, _enc, done) {
        written += chunk;
        done();
      },
    });
    logBanner(createLogger({ service: 'embedded', destination: sink }), facts);
    const line = JSON.parse(written);
    assert.equal(line.msg, 'Sesame is running on http://localhost:8080');
    assert.equal(line.level, 'info');
    assert.equal(line.console, 'http://localhost:8080/console/');
    assert.equal(line.ownerEmail, 'owner@demo.test');
    assert.equal(line.outbox, 'http://localhost:8080/dev/mail');
    assert.equal(line.sampleApp, 'http://localhost:3000');
    assert.equal(line.demoFile, '/x/.sesame/demo.json');
    assert.equal(line.grpc, 'auth=127.0.0.1:1 token=127.0.0.1:2');
    assert.deepEqual(line.stores, { servers: [], dataDir: '/x/.sesame/data' });
  });
});
