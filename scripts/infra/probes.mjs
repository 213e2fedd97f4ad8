// Protocol-level readiness probes (raw sockets, no client libraries).
// Each probe resolves true only when the server answers a real request.
import net from 'node:net';
import { HOST } from './lib.mjs';

// ---------------------------------------------------------------- network

/** Resolve true if something accepts a TCP connection on host:port. */
export function portOpen(port, host = HOST, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host });
    const finish = (ok) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(timeoutMs, () => finish(false));
    sock.once('connect', () => finish(true));
    sock.once('error', () => finish(false));
  });
}

/**
 * Open a socket, write `request`, collect bytes until `isComplete(buf)` says
 * the reply is whole, resolve with the buffer. Rejects on error/timeout.
 */
export function exchange(port, request, isComplete, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ port, host: HOST });
    let buf = Buffer.alloc(0);
    const finish = (err, val) => {
      sock.destroy();
      err ? reject(err) : resolve(val);
    };
    sock.setTimeout(timeoutMs, () => finish(new Error('timeout')));
    sock.once('error', (e) => finish(e));
    sock.once('connect', () => sock.write(request));
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (isComplete(buf)) finish(null, buf);
    });
    sock.once('end', () => finish(new Error('connection closed')));
  });
}

/** Redis: RESP `PING` must answer `+PONG`. */
export async function redisPing(port) {
  try {
    const buf = await exchange(port, '*1\r\n$4\r\nPING\r\n', (b) => b.includes('\r\n'));
    return buf.toString('latin1').startsWith('+PONG');
  } catch {
    return false;
  }
}

/**
 * The tests' SMTP server: its greeting must be `220`, and its mailbox API must answer GET /messages with a
 * JSON list.
 */
export async function mailboxReady(smtpPort, apiPort) {
  try {
    const greeting = await exchange(smtpPort, '', (b) => b.includes('\r\n'));
    if (!greeting.toString('latin1').startsWith('220')) return false;
    const res = await fetch(`http://${HOST}:${apiPort}/messages?to=readiness-probe@localhost`, {
      signal: AbortSignal.timeout(2000),
    });
    return res.ok && Array.isArray((await res.json()).messages);
  } catch {
    return false;
  }
}

function sizedComplete(b) {
  return b.length >= 4 && b.length >= 4 + b.readInt32BE(0);
}

/**
 * Kafka: a Metadata v1 request (no topics) must list at least one broker.
 * Returns { ok, brokers: [{ id, host, port }], controllerId } or { ok: false }.
 */
export async function kafkaMetadata(port) {
  const clientId = Buffer.from('sesame-infra');
  const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length + 4);
  let o = 0;
  o = body.writeInt16BE(3, o); // api key: Metadata
  o = body.writeInt16BE(1, o); // api version 1
  o = body.writeInt32BE(7, o); // correlation id
  o = body.writeInt16BE(clientId.length, o);
  o += clientId.copy(body, o);
  body.writeInt32BE(0, o); // topics: empty array => none
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  try {
    const res = await exchange(port, Buffer.concat([size, body]), sizedComplete);
    let p = 4;
    if (res.readInt32BE(p) !== 7) return { ok: false };
    p += 4;
    const n = res.readInt32BE(p);
    p += 4;
    const brokers = [];
    for (let i = 0; i < n; i++) {
      const id = res.readInt32BE(p);
      p += 4;
      const hl = res.readInt16BE(p);
      p += 2;
      const host = res.toString('utf8', p, p + hl);
      p += hl;
      const bport = res.readInt32BE(p);
      p += 4;
      const rl = res.readInt16BE(p);
      p += 2 + Math.max(rl, 0);
      brokers.push({ id, host, port: bport });
    }
    const controllerId = res.readInt32BE(p);
    return { ok: brokers.length > 0, brokers, controllerId };
  } catch {
    return { ok: false };
  }
}

// ---- minimal BSON for the MongoDB wire probe

function cstr(s) {
  return Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])]);
}

function bsonDoc(fields) {
  const parts = [];
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'number') {
      const b = Buffer.alloc(4);
      b.writeInt32LE(v);
      parts.push(Buffer.from([0x10]), cstr(k), b);
    } else {
      const s = cstr(String(v));
      const len = Buffer.alloc(4);
      len.writeInt32LE(s.length);
      parts.push(Buffer.from([0x02]), cstr(k), len, s);
    }
  }
  const inner = Buffer.concat([...parts, Buffer.from([0])]);
  const len = Buffer.alloc(4);
  len.writeInt32LE(inner.length + 4);
  return Buffer.concat([len, inner]);
}

/** Read top-level fields of a BSON document as {name: value|type}; unknown types stop the walk. */
function bsonTopLevel(buf, start) {
  const out = {};
  const end = start + buf.readInt32LE(start) - 1;
  let p = start + 4;
  const fixed = { 1: 8, 7: 12, 8: 1, 9: 8, 10: 0, 16: 4, 17: 8, 18: 8, 19: 16 };
  while (p < end) {
    const type = buf[p++];
    const z = buf.indexOf(0, p);
    const name = buf.toString('utf8', p, z);
    p = z + 1;
    if (type === 0x01) out[name] = buf.readDoubleLE(p);
    else if (type === 0x10) out[name] = buf.readInt32LE(p);
    else if (type === 0x08) out[name] = buf[p] === 1;
    else if (type === 0x02) out[name] = buf.toString('utf8', p + 4, p + 4 + buf.readInt32LE(p) - 1);
    if (type in fixed) p += fixed[type];
    else if (type === 0x02) p += 4 + buf.readInt32LE(p);
    else if (type === 0x03 || type === 0x04) p += buf.readInt32LE(p);
    else if (type === 0x05) p += 5 + buf.readInt32LE(p);
    else break;
  }
  return out;
}

/** MongoDB wire: OP_MSG {hello: 1, $db: "admin"} must answer ok: 1. Returns the reply fields or null. */
export async function mongoHello(port) {
  const doc = bsonDoc({ hello: 1, $db: 'admin' });
  const header = Buffer.alloc(16 + 4 + 1);
  header.writeInt32LE(header.length + doc.length, 0);
  header.writeInt32LE(1, 4); // requestID
  header.writeInt32LE(0, 8); // responseTo
  header.writeInt32LE(2013, 12); // OP_MSG
  header.writeUInt32LE(0, 16); // flagBits
  header[20] = 0; // section kind 0: body
  try {
    const res = await exchange(
      port,
      Buffer.concat([header, doc]),
      (b) => b.length >= 4 && b.length >= b.readInt32LE(0),
    );
    if (res.readInt32LE(12) !== 2013 || res.readInt32LE(8) !== 1 || res[20] !== 0) return null;
    const fields = bsonTopLevel(res, 21);
    return fields.ok === 1 || fields.ok === true ? fields : null;
  } catch {
    return null;
  }
}
