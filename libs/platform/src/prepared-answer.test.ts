import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  prepareAnswer,
  prepareHead,
  preparedHeadsSkipValidation,
  writePreparedHead,
  writePreparedJsonHead,
} from './prepared-answer';

/** The raw bytes of one GET over a fresh connection, the Date line taken out (it changes every second). */
function rawGet(port: number, path: string, extra = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      // Every answer here carries a Content-Length of the body below, or is a 304.
      if (/\r\n\r\n/.test(received) && (received.startsWith('HTTP/1.1 304') || received.endsWith('}'))) {
        socket.end();
      }
    });
    socket.on('end', () => resolve(received.replace(/^Date: .*\r\n/m, '')));
    socket.on('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`);
  });
}

describe('writePreparedHead', () => {
  const body = Buffer.from('{"keys":["é"]}');
  const answer = prepareAnswer(body, [
    'Content-Security-Policy',
    "default-src 'none'",
    'Vary',
    'Origin',
    'Vary',
    'Accept-Encoding',
    'Content-Type',
    'application/json',
  ]);
  const seen: Array<Record<string, unknown>> = [];
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const id = String(req.headers['x-request-id'] ?? 'none');
      const status = req.url === '/304' ? 304 : 200;
      const [list, fields] =
        status === 304 ? [answer.notModified, answer.notModifiedFields] : [answer.ok, answer.okFields];
      if (req.url === '/list') {
        list[list.length - 1] = id;
        res.writeHead(status, list);
      } else writePreparedHead(res, status, list, fields, id);
      seen.push(res.getHeaders());
      res.end(status === 304 ? undefined : answer.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('writes the same bytes as writeHead with the header list: every header, a repeated one on its own lines, the id, the body', async () => {
    const viaList = await rawGet(port, '/list', 'X-Request-Id: req-1\r\n');
    const prepared = await rawGet(port, '/prepared', 'X-Request-Id: req-1\r\n');
    assert.equal(prepared, viaList);
    assert.match(prepared, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(prepared, /\r\nVary: Origin\r\nVary: Accept-Encoding\r\n/);
    assert.match(prepared, new RegExp(`\r\nETag: ${answer.etag}\r\nContent-Length: ${body.length}\r\n`));
    assert.match(prepared, /\r\nX-Request-Id: req-1\r\n/);
    assert.ok(prepared.endsWith(`\r\n\r\n${body.toString('latin1')}`));
  });

  it("puts each request's own id in, and a 304 is the same head without Content-Length or body", async () => {
    const [a, b] = await Promise.all([
      rawGet(port, '/prepared', 'X-Request-Id: first\r\n'),
      rawGet(port, '/304', 'X-Request-Id: second\r\n'),
    ]);
    assert.match(a, /\r\nX-Request-Id: first\r\n/);
    assert.match(b, /^HTTP\/1\.1 304 Not Modified\r\n/);
    assert.match(b, /\r\nX-Request-Id: second\r\n/);
    assert.doesNotMatch(b, /Content-Length/);
    assert.ok(b.endsWith('\r\n\r\n'));
  });

  it('takes the prepared path on this node (the list path is only the fallback)', () => {
    assert.equal(preparedHeadsSkipValidation, true);
  });

  it('leaves the response holding no headers afterwards, as writeHead with a list does', () => {
    assert.ok(seen.length >= 4);
    for (const headers of seen) assert.deepEqual({ ...headers }, {});
  });

  it('refuses to prepare a header name or value writeHead would refuse', () => {
    assert.throws(() => prepareAnswer(body, ['Bad Name', 'x']), { code: 'ERR_INVALID_HTTP_TOKEN' });
    assert.throws(() => prepareAnswer(body, ['X-Split', 'a\r\nInjected: 1']), { code: 'ERR_INVALID_CHAR' });
  });
});

describe('writePreparedJsonHead', () => {
  const fixed = [
    'Content-Type',
    'application/json; charset=utf-8',
    'Cache-Control',
    'no-store',
    'Vary',
    'Origin',
    'Vary',
    'Accept',
  ];
  const head = prepareHead(fixed);
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const id = String(req.headers['x-request-id'] ?? 'none');
      // A body of another length on every request: the Content-Length slot must follow it.
      const body = JSON.stringify({ id, pad: 'é'.repeat(id.length) });
      const length = Buffer.byteLength(body);
      if (req.url === '/list')
        res.writeHead(201, [...fixed, 'X-Request-Id', id, 'Content-Length', String(length)]);
      else writePreparedJsonHead(res, 201, head, id, length);
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('writes the same bytes as writeHead with the whole list, with each request its own id and length', async () => {
    for (const id of ['a', 'req-2-longer', 'c']) {
      const extra = `X-Request-Id: ${id}\r\n`;
      const [prepared, list] = await Promise.all([
        rawGet(port, '/prepared', extra),
        rawGet(port, '/list', extra),
      ]);
      assert.equal(prepared, list);
      assert.match(
        prepared,
        new RegExp(
          `X-Request-Id: ${id}\r\nContent-Length: ${Buffer.byteLength(JSON.stringify({ id, pad: 'é'.repeat(id.length) }))}\r\n`,
        ),
      );
    }
  });

  it('refuses to prepare a header value writeHead would refuse', () => {
    assert.throws(() => prepareHead(['X-Bad', 'a\nb']), { code: 'ERR_INVALID_CHAR' });
  });
});
