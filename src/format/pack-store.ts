// The format cache's storage (see format-cache.ts for what it holds and how entries are keyed).
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writevSync } from "node:fs";
import { join } from "node:path";
import { makeDirs } from "../write/write.js";

/*
 * The cache is a directory of packs. A pack is one run's entries in one file: the entries' bytes one
 * after another, then an index (a record for each key, sorted: the key, the entry's offset, length
 * and checksum, the whole under a checksum of its own), then where the index begins. A run writes
 * its pack under a temporary name and renames it when whole, so a reader opens only whole packs,
 * and believes an entry only where its checksum verifies. A lookup is a binary search of each
 * pack's index, which is read, not parsed: at 1,000 contracts (39,000 entries) a run that changed
 * one is ready in a few milliseconds. One file a run, where there was a file an entry (a cold run
 * of 200 contracts wrote 7,808, each a write and a rename: 2.5 s of its main thread's 21 s).
 */
const MAGIC = "treaty format pack 2\n";
/** The last bytes of a pack: where its index begins, as 19 digits and a newline. */
const TRAILER = 20;
/** An index record: the key (a SHA-256), the entry's offset and length, its checksum. */
const KEY = 32;
const OFFSET = 6;
const LENGTH = 4;
const SUM = 16;
const RECORD = KEY + OFFSET + LENGTH + SUM;
/** The index's own checksum, before its records. */
const INDEX_SUM = 32;
/** Bytes of entries gathered before they are written: one system call for dozens of entries. */
const FLUSH = 1 << 20;
/** Keys are SHA-256 digests in hex (formatKey, statementsKey); anything else is not cached. */
const HEX_KEY = /^[0-9a-f]{64}$/;

export interface CacheLimits {
  /** Packs kept before all but the largest are merged into one: each run that formats something adds one, and each lookup searches every pack. */
  readonly packs: number;
  /** Bytes of packs kept at most: past it, the oldest packs go. */
  readonly bytes: number;
}
const LIMITS: CacheLimits = { packs: 8, bytes: 2 ** 30 };
/** A pack still being written (a `.tmp`) this long after its last write is a killed run's. */
const ABANDONED_MS = 6 * 3600 * 1000;

const sha256 = (bytes: Uint8Array): Buffer => createHash("sha256").update(bytes).digest();
const sumOf = (bytes: Uint8Array): Buffer => sha256(bytes).subarray(0, SUM);

/** Where one entry is. */
interface Slot {
  readonly fd: number;
  readonly offset: number;
  readonly length: number;
  readonly sum: Buffer;
}

/** A whole pack, open for reading (its descriptor keeps it readable should another run merge and remove it), and its sorted index records. */
interface Pack {
  readonly fd: number;
  readonly records: Buffer;
  /** Where the index begins: no entry reaches past it. */
  readonly end: number;
}

const readAt = (fd: number, offset: number, length: number): Buffer => {
  const bytes = Buffer.allocUnsafe(length);
  if (readSync(fd, bytes, 0, length, offset) !== length) throw new Error("short read");
  return bytes;
};

const quietly = (action: () => void): void => {
  try {
    action();
  } catch {
    // best effort: the cache only accelerates
  }
};

/** The pack at `path`, opened; undefined where it is not a whole pack. */
const openPack = (path: string): Pack | undefined => {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    if (size < MAGIC.length + INDEX_SUM + TRAILER || readAt(fd, 0, MAGIC.length).toString() !== MAGIC) throw new Error("not a pack");
    const end = Number(readAt(fd, size - TRAILER, TRAILER).toString());
    if (!Number.isSafeInteger(end) || end < MAGIC.length || end + INDEX_SUM > size - TRAILER) throw new Error("no index");
    const index = readAt(fd, end, size - TRAILER - end);
    const records = index.subarray(INDEX_SUM);
    if (records.length % RECORD !== 0 || !sha256(records).equals(index.subarray(0, INDEX_SUM))) throw new Error("index spoiled");
    return { fd, records, end };
  } catch {
    if (fd !== undefined) quietly(() => closeSync(fd!));
    return undefined;
  }
};

const slotAt = (pack: Pack, record: number): Slot => {
  const at = record * RECORD + KEY;
  return {
    fd: pack.fd,
    offset: pack.records.readUIntBE(at, OFFSET),
    length: pack.records.readUInt32BE(at + OFFSET),
    sum: pack.records.subarray(at + OFFSET + LENGTH, at + OFFSET + LENGTH + SUM),
  };
};

/** The slot of `key` in `pack` (a binary search of its sorted records). */
const find = (pack: Pack, key: Buffer): Slot | undefined => {
  let low = 0;
  let high = pack.records.length / RECORD - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = pack.records.compare(key, 0, KEY, middle * RECORD, middle * RECORD + KEY);
    if (order === 0) {
      const slot = slotAt(pack, middle);
      return slot.offset >= MAGIC.length && slot.offset + slot.length <= pack.end ? slot : undefined;
    }
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
};

/** The entry in `slot`, or undefined where it cannot be read or its checksum does not verify. */
const readSlot = (slot: Slot): string | undefined => {
  try {
    const bytes = readAt(slot.fd, slot.offset, slot.length);
    return sumOf(bytes).equals(slot.sum) ? bytes.toString("utf8") : undefined;
  } catch {
    return undefined;
  }
};

let packsMade = 0;
/** A new pack's name: packs are searched newest (last by name) first. */
const packName = (): string =>
  `${String(Date.now()).padStart(15, "0")}-${String(packsMade++).padStart(6, "0")}-${process.pid}-${Math.random().toString(36).slice(2, 10)}.pack`;

/** A pack being written in `dir`: entries appended, read back from the same file, renamed into place when whole. */
const createPackWriter = (dir: string) => {
  makeDirs(dir);
  const temp = join(dir, `${packName()}.tmp`);
  const fd = openSync(temp, "wx+");
  const slots = new Map<string, Slot>();
  let pending: Buffer[] = [Buffer.from(MAGIC)];
  let size = MAGIC.length;
  let flushed = 0;
  let open = true;
  const flush = (): void => {
    if (pending.length === 0) return;
    writevSync(fd, pending, flushed);
    flushed = size;
    pending = [];
  };
  return {
    /** Appends `bytes` under `key` (a later one for a key wins). */
    append: (key: string, bytes: Buffer, sum = sumOf(bytes)): void => {
      slots.set(key, { fd, offset: size, length: bytes.length, sum });
      pending.push(bytes);
      size += bytes.length;
      if (size - flushed >= FLUSH) flush();
    },
    /** The slot of `key` among what was appended, readable from the file. */
    find: (key: string): Slot | undefined => {
      const slot = slots.get(key);
      if (slot !== undefined && slot.offset + slot.length > flushed) flush();
      return slot;
    },
    /** Writes the index and gives the pack its final name (in `dir`). */
    finish: (): void => {
      const keys = [...slots.keys()].sort(); // lowercase hex: the order of the bytes
      const records = Buffer.alloc(keys.length * RECORD);
      keys.forEach((key, i) => {
        const slot = slots.get(key)!;
        const at = i * RECORD;
        records.write(key, at, KEY, "hex");
        records.writeUIntBE(slot.offset, at + KEY, OFFSET);
        records.writeUInt32BE(slot.length, at + KEY + OFFSET);
        slot.sum.copy(records, at + KEY + OFFSET + LENGTH);
      });
      const end = size;
      pending.push(sha256(records), records, Buffer.from(`${String(end).padStart(TRAILER - 1, "0")}\n`));
      size += INDEX_SUM + records.length + TRAILER;
      flush();
      open = false;
      closeSync(fd);
      renameSync(temp, join(dir, packName()));
    },
    /** Drops the pack (a write failed). */
    drop: (): void => {
      // Never closed twice: the number may by then be another file's.
      if (open) quietly(() => closeSync(fd));
      open = false;
      quietly(() => rmSync(temp, { force: true }));
    },
  };
};
type PackWriter = ReturnType<typeof createPackWriter>;

/** The packs in `dir` by name (oldest first), each with its size; with `clean`, a killed run's temporary packs removed. */
const listPacks = (dir: string, clean: boolean): { name: string; size: number }[] => {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const packs: { name: string; size: number }[] = [];
  for (const name of names) {
    quietly(() => {
      const stat = statSync(join(dir, name));
      if (name.endsWith(".pack")) packs.push({ name, size: stat.size });
      else if (clean && name.endsWith(".tmp") && Date.now() - stat.mtimeMs > ABANDONED_MS) rmSync(join(dir, name), { force: true });
    });
  }
  return packs;
};

/**
 * Keeps the packs in `dir` few and bounded: past `limits.packs`, every pack but the largest (in the
 * usual case a cold run's, with runs that changed a little after it) is merged into one, each key's
 * latest entry that verifies; past `limits.bytes` in all, the oldest packs go.
 */
const tidy = (dir: string, limits: CacheLimits): void => {
  let packs = listPacks(dir, true);
  if (packs.length > limits.packs) {
    const largest = packs.reduce((a, b) => (b.size > a.size ? b : a));
    const merged = packs.filter((p) => p !== largest);
    const latest = new Map<string, Slot>();
    const opened: Pack[] = [];
    for (const { name } of merged) {
      const pack = openPack(join(dir, name));
      if (!pack) continue;
      opened.push(pack);
      for (let record = 0; record < pack.records.length / RECORD; record++) {
        latest.set(pack.records.toString("hex", record * RECORD, record * RECORD + KEY), slotAt(pack, record));
      }
    }
    let writer: PackWriter | undefined;
    try {
      writer = createPackWriter(dir);
      for (const [key, slot] of latest) {
        const text = readSlot(slot);
        if (text !== undefined) writer.append(key, Buffer.from(text), slot.sum);
      }
      writer.finish();
      for (const { name } of merged) rmSync(join(dir, name), { force: true });
    } catch {
      writer?.drop();
    } finally {
      for (const pack of opened) quietly(() => closeSync(pack.fd));
    }
    packs = listPacks(dir, false);
  }
  let total = packs.reduce((n, p) => n + p.size, 0);
  for (const pack of packs) {
    if (total <= limits.bytes) break;
    quietly(() => rmSync(join(dir, pack.name), { force: true }));
    total -= pack.size;
  }
};

export interface PackStore {
  get(key: string): string | undefined;
  set(key: string, text: string): void;
  /** Finishes this run's pack (and keeps the packs few and bounded); returns whether it wrote one. */
  close(): boolean;
}

/**
 * The packs in `packsDir`. With `readOnly`, never writes (for `--check`). The packs are opened at
 * the first lookup (a run that formats nothing opens none); this run's entries go to a pack of its
 * own, readable by this run at once and by the next once `close` renamed it.
 */
export const createPackStore = (packsDir: string, options: { readOnly: boolean; limits?: CacheLimits }): PackStore => {
  let writable = !options.readOnly;
  let packs: Pack[] | undefined;
  let writer: PackWriter | undefined;
  /** The packs, newest first. */
  const opened = (): Pack[] =>
    (packs ??= listPacks(packsDir, false)
      .map(({ name }) => openPack(join(packsDir, name)))
      .filter((pack) => pack !== undefined)
      .reverse());
  /** Stops writing: what this run appended is dropped. */
  const stopWriting = (): void => {
    writable = false;
    writer?.drop();
    writer = undefined;
  };
  return {
    get: (key) => {
      if (!HEX_KEY.test(key)) return undefined;
      if (writer) {
        try {
          const own = writer.find(key);
          const text = own && readSlot(own);
          if (text !== undefined) return text;
        } catch {
          stopWriting();
        }
      }
      const digest = Buffer.from(key, "hex");
      for (const pack of opened()) {
        const slot = find(pack, digest);
        const text = slot && readSlot(slot);
        if (text !== undefined) return text;
      }
      return undefined;
    },
    set: (key, text) => {
      if (!writable || !HEX_KEY.test(key)) return;
      try {
        writer ??= createPackWriter(packsDir);
        writer.append(key, Buffer.from(text));
      } catch {
        stopWriting(); // not writable here: run uncached rather than fail
      }
    },
    close: () => {
      let finished = false;
      if (writer) {
        try {
          writer.finish();
          finished = true;
        } catch {
          writer.drop();
        }
        if (finished) tidy(packsDir, options.limits ?? LIMITS);
      }
      writer = undefined;
      writable = false;
      for (const pack of packs ?? []) quietly(() => closeSync(pack.fd));
      packs = undefined;
      return finished;
    },
  };
};
