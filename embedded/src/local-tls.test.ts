import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConnectionOptions, connect, createServer as createTlsServer } from 'node:tls';
import { describe, it } from '@jest/globals';
import { clientCertificateOf } from '@sesame/oauth';
import { listen } from '@sesame/platform';
import { TLS_FILES, certificateNames, ensureLocalTls } from './local-tls';

const DAY_MS = 24 * 60 * 60 * 1000;
const tempDir = () => mkdtempSync(join(tmpdir(), 'sesame-local-tls-'));
const read = (dir: string, file: keyof typeof TLS_FILES) => readFileSync(join(dir, TLS_FILES[file]), 'utf8');
const mode = (dir: string, file: keyof typeof TLS_FILES) => statSync(join(dir, TLS_FILES[file])).mode & 0o777;

/** The TLS version a handshake with `port` settles on, or the error that ended it. */
function handshake(port: number, opts: ConnectionOptions): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', ...opts }, () => {
      resolve(socket.getProtocol() ?? 'none');
      socket.end();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(`error:${err.code ?? err.message}`));
  });
}

/** Client settings that can speak TLS 1.1 (node's defaults refuse it on the client side too). */
const tls11 = { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' } as const;

describe('local TLS for npm start -- --https', () => {
  it('names the loopback names always, and HOST when a client can dial it', () => {
    assert.deepEqual(certificateNames(undefined), ['localhost', '127.0.0.1', '::1']);
    assert.deepEqual(certificateNames('127.0.0.1'), ['localhost', '127.0.0.1', '::1']);
    assert.deepEqual(certificateNames('0.0.0.0'), ['localhost', '127.0.0.1', '::1']);
    assert.deepEqual(certificateNames('::'), ['localhost', '127.0.0.1', '::1']);
    assert.deepEqual(certificateNames('Sesame.Example'), ['localhost', '127.0.0.1', '::1', 'sesame.example']);
    assert.deepEqual(certificateNames('[192.0.2.7]'), ['localhost', '127.0.0.1', '::1', '192.0.2.7']);
  });

  it('makes a CA (key mode 0600) and a server certificate it signed, for every name asked', async () => {
    const dir = join(tempDir(), 'tls');
    const made = await ensureLocalTls({ dir, names: certificateNames('sesame.test') });
    assert.deepEqual(made.created, ['ca', 'server']);
    assert.equal(made.caFile, join(dir, 'ca.crt'));
    assert.equal(mode(dir, 'caKey'), 0o600);
    assert.equal(mode(dir, 'key'), 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const ca = new X509Certificate(read(dir, 'caCert'));
    const server = new X509Certificate(read(dir, 'cert'));
    assert.equal(ca.ca, true);
    assert.equal(server.ca, false);
    assert.equal(server.verify(ca.publicKey), true);
    assert.equal(server.checkIssued(ca), true);
    for (const host of ['localhost', 'sesame.test']) assert.equal(server.checkHost(host), host);
    for (const ip of ['127.0.0.1', '::1']) assert.equal(server.checkIP(ip), ip);
    assert.equal(server.checkHost('example.org'), undefined);
    // At most 398 days (what browsers accept), and the chain served is the server's then the CA's.
    assert.ok(Date.parse(server.validTo) - Date.now() <= 398 * DAY_MS);
    assert.equal(made.cert, `${read(dir, 'cert')}${read(dir, 'caCert')}`);
    assert.equal(made.ca, read(dir, 'caCert'));
  });

  it('reuses both on the next start, byte for byte', async () => {
    const dir = tempDir();
    const first = await ensureLocalTls({ dir, names: certificateNames(undefined) });
    const again = await ensureLocalTls({ dir, names: certificateNames(undefined) });
    assert.deepEqual(again.created, []);
    assert.equal(again.ca, first.ca);
    assert.equal(again.cert, first.cert);
    assert.equal(again.key, first.key);
  });

  it('makes a new server certificate (same CA) for a name it does not cover, or when it expires', async () => {
    const dir = tempDir();
    const first = await ensureLocalTls({ dir, names: certificateNames(undefined) });
    const wider = await ensureLocalTls({ dir, names: certificateNames('sesame.test') });
    assert.deepEqual(wider.created, ['server']);
    assert.equal(wider.ca, first.ca);
    assert.notEqual(wider.key, first.key);
    // 397 days on, the server certificate has (almost) run out; the CA, ten years long, has not.
    const later = new Date(Date.now() + 397 * DAY_MS);
    const renewed = await ensureLocalTls({ dir, names: certificateNames('sesame.test'), now: later });
    assert.deepEqual(renewed.created, ['server']);
    assert.equal(renewed.ca, first.ca);
    assert.ok(Date.parse(new X509Certificate(read(dir, 'cert')).validTo) > later.getTime() + 300 * DAY_MS);
  });

  it('makes both anew when the CA has expired, its key does not match, or a file is garbage', async () => {
    const dir = tempDir();
    const first = await ensureLocalTls({ dir, names: certificateNames(undefined) });
    const expired = await ensureLocalTls({
      dir,
      names: certificateNames(undefined),
      now: new Date(Date.now() + 3651 * DAY_MS),
    });
    assert.deepEqual(expired.created, ['ca', 'server']);
    assert.notEqual(expired.ca, first.ca);

    writeFileSync(join(dir, TLS_FILES.caKey), first.key); // another key beside the CA certificate
    const mismatched = await ensureLocalTls({ dir, names: certificateNames(undefined) });
    assert.deepEqual(mismatched.created, ['ca', 'server']);

    writeFileSync(join(dir, TLS_FILES.cert), 'not a certificate');
    const garbage = await ensureLocalTls({ dir, names: certificateNames(undefined) });
    assert.deepEqual(garbage.created, ['server']);
    assert.equal(garbage.ca, mismatched.ca);
  });

  it('a server certificate from another CA is replaced', async () => {
    const dir = tempDir();
    const other = tempDir();
    await ensureLocalTls({ dir, names: certificateNames(undefined) });
    await ensureLocalTls({ dir: other, names: certificateNames(undefined) });
    for (const file of ['cert', 'key'] as const) writeFileSync(join(dir, TLS_FILES[file]), read(other, file));
    const fixed = await ensureLocalTls({ dir, names: certificateNames(undefined) });
    assert.deepEqual(fixed.created, ['server']);
    assert.equal(
      new X509Certificate(read(dir, 'cert')).verify(new X509Certificate(fixed.ca).publicKey),
      true,
    );
  });

  it('a listener with it answers https to a client trusting the CA, over TLS 1.3 or 1.2, and refuses 1.1', async () => {
    const made = await ensureLocalTls({ dir: tempDir(), names: certificateNames(undefined) });
    const served = await listen(
      (_req: IncomingMessage, res: ServerResponse) => void res.end('hello'),
      0,
      '127.0.0.1',
      undefined,
      {
        key: made.key,
        cert: made.cert,
      },
    );
    // The control: a server that allows TLS 1.1 does complete a 1.1 handshake with these client settings,
    // so the refusal below is the listener's.
    const lax = createTlsServer({
      key: made.key,
      cert: made.cert,
      minVersion: 'TLSv1',
      ciphers: 'DEFAULT@SECLEVEL=0',
    });
    await new Promise<void>((done) => lax.listen(0, '127.0.0.1', done));
    try {
      const body = await new Promise<string>((resolve, reject) => {
        request(`https://localhost:${served.port}/`, { ca: made.ca }, (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve(text));
        })
          .on('error', reject)
          .end();
      });
      assert.equal(body, 'hello');
      assert.equal(await handshake(served.port, { ca: made.ca }), 'TLSv1.3');
      assert.equal(await handshake(served.port, { ca: made.ca, maxVersion: 'TLSv1.2' }), 'TLSv1.2');
      const laxPort = (lax.address() as { port: number }).port;
      assert.equal(await handshake(laxPort, { ca: made.ca, ...tls11 }), 'TLSv1.1');
      assert.equal(
        await handshake(served.port, { ca: made.ca, ...tls11 }),
        'error:ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
      );
      // Not trusting the CA: refused by the client, as for any unknown issuer.
      assert.equal(await handshake(served.port, {}), 'error:SELF_SIGNED_CERT_IN_CHAIN');
    } finally {
      lax.close();
      await served.close(1000);
    }
  });

  it('with requestCert, a client certificate from any issuer reaches the app, which reads it from the socket', async () => {
    const made = await ensureLocalTls({ dir: tempDir(), names: certificateNames(undefined) });
    // Another checkout's CA stands in for a client's own, self-signed issuer.
    const client = await ensureLocalTls({ dir: tempDir(), names: ['localhost'] });
    const seen: Array<string | undefined> = [];
    const served = await listen(
      (req: IncomingMessage, res: ServerResponse) => {
        const presented = clientCertificateOf(req);
        seen.push(
          presented
            ? `${presented.cert.subject.split('\n')[0]} verified=${presented.chainVerified}`
            : undefined,
        );
        res.end('ok');
      },
      0,
      '127.0.0.1',
      undefined,
      { key: made.key, cert: made.cert, ca: made.ca, requestCert: true },
    );
    const get = (opts: { cert?: string; key?: string }) =>
      new Promise<number>((resolve, reject) => {
        request(`https://localhost:${served.port}/`, { ca: made.ca, ...opts }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
          .on('error', reject)
          .end();
      });
    try {
      assert.equal(await get({}), 200);
      assert.equal(await get({ cert: client.cert, key: client.key }), 200);
      assert.deepEqual(seen, [undefined, 'CN=localhost verified=false']);
    } finally {
      await served.close(1000);
    }
  });
});
