import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, it } from '@jest/globals';
import express from 'express';
import type { FlowRecord } from '../../support/port';
import { flowOf } from '../../testing/support-data';
import { CSV_COLUMNS, csvCell, csvLine, exportEventData, streamExport } from './export';

describe('support exports', () => {
  it('CSV injection: a cell starting with = + - @ tab or CR stays text (prefixed with a quote)', () => {
    for (const bad of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
      assert.equal(csvCell(bad).replace(/^"|"$/g, '')[0], "'", JSON.stringify(bad));
    }
    assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('line\nbreak'), '"line\nbreak"');
    assert.equal(csvCell(undefined), '');
    assert.equal(csvCell(5), '5');
  });

  it('one line per record, in the header’s columns, the outcome in words', () => {
    const record = flowOf('t', 'f1', Date.UTC(2026, 0, 1), ['auth_start_oidc', 'desktop_login_page'], {
      userId: 'u1',
      email: '-x@example.com',
    });
    const cells = csvLine(record).split(',');
    assert.equal(cells.length, CSV_COLUMNS.length);
    assert.deepEqual(cells.slice(0, 5), ['f1', '2026-01-01T00:00:00.000Z', 'app-1', 'u1', "'-x@example.com"]);
    assert.ok(csvLine(record).includes('Abandoned at the email step'));
  });

  it('the export event data is spelled as spec 2.5 does', () => {
    assert.deepEqual(exportEventData(), { multipeEvents: true });
    assert.deepEqual(exportEventData('f1'), { multipeEvents: false, flowId: 'f1' });
  });

  it('streams many records as a download, with backpressure, into valid JSON and CSV', async () => {
    // Batches of 7, as the port hands them (the last one short): every record once, in order.
    async function* records(): AsyncIterable<FlowRecord[]> {
      for (let from = 0; from < 3000; from += 7)
        yield Array.from({ length: Math.min(7, 3000 - from) }, (_, k) =>
          flowOf('t', `f${from + k}`, from + k, ['auth_start_oidc']),
        );
    }
    const app = express().get('/:format', (req, res) => {
      void streamExport(
        res,
        req.params.format as 'csv' | 'json',
        records(),
        'sign-ins',
        Date.UTC(2026, 0, 1),
      );
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const json = await fetch(`${base}/json`);
      assert.equal(
        json.headers.get('content-disposition'),
        'attachment; filename="sign-ins-20260101T000000.json"',
      );
      const parsed = (await json.json()) as FlowRecord[];
      assert.equal(parsed.length, 3000);
      assert.deepEqual(
        parsed.map((r) => r.id),
        Array.from({ length: 3000 }, (_, i) => `f${i}`),
      );
      const csv = (await (await fetch(`${base}/csv`)).text()).trim().split('\r\n');
      assert.equal(csv.length, 3001);
      assert.equal(csv[0], CSV_COLUMNS.join(','));
    } finally {
      server.close();
    }
  });

  it('stops reading the records when the client leaves while the response waits for its buffer to drain', async () => {
    let read = 0;
    let released = false;
    async function* records(): AsyncIterable<FlowRecord[]> {
      try {
        for (let i = 0; i < 1_000_000; i++) {
          read++;
          yield [flowOf('t', `f${i}`, i, ['auth_start_oidc'])];
        }
      } finally {
        released = true;
      }
    }
    let exported: Promise<void> | undefined;
    const app = express().get('/', (_req, res) => {
      exported = streamExport(res, 'json', records(), 'sign-ins', 0);
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const client = connect((server.address() as { port: number }).port, '127.0.0.1');
    try {
      client.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await once(client, 'data');
      client.pause(); // reads nothing more: the socket's buffers fill and the response stops draining
      let seen = -1;
      while (seen !== read) {
        seen = read;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.ok(read < 1_000_000, 'the export waits for the reader');
      client.destroy();
      await exported;
      assert.equal(released, true, 'the records are let go (the peer call ends)');
      assert.equal(read, seen, 'nothing more is read after the client left');
    } finally {
      client.destroy();
      server.close();
    }
  });
});
