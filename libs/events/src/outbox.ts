import { mkdirSync } from 'node:fs';
import { type FileHandle, open, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One buffered event: what a Kafka record needs. */
export interface OutboxRecord {
  topic: string;
  key: string;
  value: Buffer;
  headers: Record<string, string>;
}

interface Entry {
  record: OutboxRecord;
  /** File offset just past this record's line. */
  end: number;
}

export interface OutboxOptions {
  /** Rewrite the log once this many acknowledged bytes sit before its unacknowledged tail. */
  compactBytes?: number;
  warn?: (msg: string, extra?: object) => void;
}

/** Outboxes open in this process: a second open of the same files would corrupt them. */
const openHere = new Set<string>();

/**
 * Durable FIFO of events on local disk. Files under dir, for outbox `name`:
 *   name.<gen>.log  one JSON line per record ({"t","k","h","v": base64}), append-only, fdatasync'd per append
 *   name.ack        {"gen","offset"}: the live log and where its unacknowledged part starts (atomic replace)
 *   name.lock       pid of the owning process
 *   name.rejected   records the broker refused for good (too large, invalid), kept for an operator
 * Acknowledging moves the offset; a drained log (or one mostly acknowledged) is rewritten to a new
 * generation. A torn last line (crash mid-append) is cut off on open: its publish never resolved.
 */
export class Outbox {
  private entries: Entry[] = [];
  private head = 0;
  private lock: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly name: string,
    private fh: FileHandle,
    private gen: number,
    private ackedOffset: number,
    private fileSize: number,
    private readonly opts: OutboxOptions,
  ) {}

  static async open(dir: string, name: string, opts: OutboxOptions = {}): Promise<Outbox> {
    const safe = name.replace(/[^\w.-]/g, '_');
    const lockPath = join(dir, `${safe}.lock`);
    if (openHere.has(lockPath)) throw new Error(`outbox ${lockPath} is already open in this process`);
    mkdirSync(dir, { recursive: true });
    const holder = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(`outbox ${lockPath} is held by process ${holder}`);
    }
    await writeFile(lockPath, String(process.pid));
    openHere.add(lockPath);
    try {
      return await Outbox.load(dir, safe, opts);
    } catch (err) {
      openHere.delete(lockPath);
      await rm(lockPath, { force: true });
      throw err;
    }
  }

  private static async load(dir: string, name: string, opts: OutboxOptions): Promise<Outbox> {
    const logRe = new RegExp(`^${name.replace(/\./g, '\\.')}\\.(\\d+)\\.log$`);
    const gens = (await readdir(dir)).flatMap((f) => {
      const m = logRe.exec(f);
      return m ? [Number(m[1])] : [];
    });
    let ack = parseAck(await readFile(join(dir, `${name}.ack`), 'utf8').catch(() => ''));
    if (!ack) ack = { gen: gens.length ? Math.min(...gens) : 1, offset: 0 };
    // Other generations are leftovers of an interrupted rewrite: everything in them is acked or copied.
    for (const g of gens) if (g !== ack.gen) await rm(join(dir, `${name}.${g}.log`), { force: true });
    const path = join(dir, `${name}.${ack.gen}.log`);
    const fh = await open(path, 'a+');
    const data = await fh.readFile();
    let offset = ack.offset <= data.length ? ack.offset : 0;
    const complete = data.lastIndexOf(0x0a) + 1;
    if (complete < data.length) await fh.truncate(complete);
    if (offset > complete) offset = complete;
    const box = new Outbox(dir, name, fh, ack.gen, offset, complete, opts);
    let pos = offset;
    while (pos < complete) {
      const nl = data.indexOf(0x0a, pos);
      const line = data.subarray(pos, nl).toString('utf8');
      pos = nl + 1;
      try {
        box.entries.push({ record: decode(line), end: pos });
      } catch {
        opts.warn?.('outbox: skipping an unreadable record', { path, offset: pos });
      }
    }
    await box.writeAck(ack.gen, offset);
    return box;
  }

  /** Records not yet acknowledged. */
  size(): number {
    return this.entries.length - this.head;
  }

  /** The oldest unacknowledged records, in order, without removing them. */
  peek(maxCount: number, maxBytes = Number.POSITIVE_INFINITY): OutboxRecord[] {
    const out: OutboxRecord[] = [];
    let bytes = 0;
    for (let i = this.head; i < this.entries.length && out.length < maxCount; i++) {
      const record = this.entries[i]!.record;
      bytes += record.value.length + record.key.length + 64;
      if (out.length > 0 && bytes > maxBytes) break;
      out.push(record);
    }
    return out;
  }

  /** Appends and fdatasyncs; resolves once the records survive a crash. */
  append(records: OutboxRecord[]): Promise<void> {
    return this.locked(async () => {
      if (!records.length) return;
      const lines = records.map((r) => Buffer.from(`${encode(r)}\n`));
      const buf = Buffer.concat(lines);
      try {
        await this.fh.write(buf, 0, buf.length, null);
        await this.fh.datasync();
      } catch (err) {
        // Cut a partial write off, or the next append would merge into a corrupt line.
        await this.fh.truncate(this.fileSize);
        throw err;
      }
      let end = this.fileSize;
      records.forEach((record, i) => {
        end += lines[i]!.length;
        this.entries.push({ record, end });
      });
      this.fileSize = end;
    });
  }

  /** Drops the n oldest records (the broker has them) and persists the new start. */
  ack(n: number): Promise<void> {
    return this.locked(async () => {
      const last = this.entries[this.head + n - 1];
      if (n <= 0 || !last) return;
      this.head += n;
      this.ackedOffset = Math.max(this.ackedOffset, last.end);
      if (this.head > 1024 && this.head * 2 > this.entries.length) {
        this.entries = this.entries.slice(this.head);
        this.head = 0;
      }
      const compactAt = this.opts.compactBytes ?? 4 << 20;
      if (this.size() === 0 || (this.ackedOffset >= compactAt && this.ackedOffset * 2 > this.fileSize)) {
        await this.rewrite();
      } else {
        await this.writeAck(this.gen, this.ackedOffset);
      }
    });
  }

  /** Moves the oldest record to name.rejected (the broker refuses it for good) and acknowledges it. */
  async reject(reason: string): Promise<void> {
    const record = this.peek(1)[0];
    if (!record) return;
    const line = JSON.stringify({ reason, at: new Date().toISOString(), ...JSON.parse(encode(record)) });
    const fh = await open(join(this.dir, `${this.name}.rejected`), 'a');
    try {
      await fh.write(`${line}\n`);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    await this.ack(1);
  }

  async close(): Promise<void> {
    await this.locked(async () => {
      if (this.closed) return;
      this.closed = true;
      await this.fh.close();
      const lockPath = join(this.dir, `${this.name}.lock`);
      await rm(lockPath, { force: true });
      openHere.delete(lockPath);
    });
  }

  /** Copies the unacknowledged tail into a new generation and switches to it. */
  private async rewrite(): Promise<void> {
    const gen = this.gen + 1;
    const path = join(this.dir, `${this.name}.${gen}.log`);
    const tail = Buffer.alloc(this.fileSize - this.ackedOffset);
    for (let done = 0; done < tail.length; ) {
      const { bytesRead } = await this.fh.read(tail, done, tail.length - done, this.ackedOffset + done);
      if (bytesRead === 0) throw new Error(`outbox log ${this.gen} is shorter than expected`);
      done += bytesRead;
    }
    const created = await open(path, 'w');
    try {
      await created.writeFile(tail);
      await created.datasync();
    } finally {
      await created.close();
    }
    const fh = await open(path, 'a+');
    try {
      await this.writeAck(gen, 0);
    } catch (err) {
      await fh.close();
      throw err;
    }
    const shift = this.ackedOffset;
    for (let i = this.head; i < this.entries.length; i++) this.entries[i]!.end -= shift;
    await this.fh.close();
    await rm(join(this.dir, `${this.name}.${this.gen}.log`), { force: true });
    this.fh = fh;
    this.gen = gen;
    this.fileSize = tail.length;
    this.ackedOffset = 0;
  }

  private async writeAck(gen: number, offset: number): Promise<void> {
    const path = join(this.dir, `${this.name}.ack`);
    const tmp = `${path}.tmp`;
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(JSON.stringify({ gen, offset }));
      await fh.datasync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
    await syncDir(this.dir);
  }

  private locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(() => {
      if (this.closed) throw new Error('outbox is closed');
      return fn();
    });
    this.lock = run.catch(() => {});
    return run;
  }
}

function encode(r: OutboxRecord): string {
  return JSON.stringify({ t: r.topic, k: r.key, h: r.headers, v: r.value.toString('base64') });
}

function decode(line: string): OutboxRecord {
  const o = JSON.parse(line) as { t?: unknown; k?: unknown; h?: unknown; v?: unknown };
  if (typeof o.t !== 'string' || typeof o.k !== 'string' || typeof o.v !== 'string')
    throw new Error('bad record');
  const headers = o.h && typeof o.h === 'object' ? (o.h as Record<string, string>) : {};
  return { topic: o.t, key: o.k, headers, value: Buffer.from(o.v, 'base64') };
}

function parseAck(text: string): { gen: number; offset: number } | undefined {
  try {
    const o = JSON.parse(text) as { gen?: unknown; offset?: unknown };
    if (Number.isSafeInteger(o.gen) && Number.isSafeInteger(o.offset))
      return o as { gen: number; offset: number };
  } catch {}
  return undefined;
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
