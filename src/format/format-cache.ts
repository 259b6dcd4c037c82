import { createHash } from "node:crypto";
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writevSync } from "node:fs";
import { dirname, join } from "node:path";
import type { EmittedFile } from "../emit/file-builder.js";
import { TREATY_VERSION } from "../version.js";
import { makeDirs } from "../write/write.js";
import { PRETTIER_OPTIONS, PRETTIER_VERSION, parserOf } from "./prettier-format.js";

/**
 * Formatted files by the hash of everything their formatting depends on, so a hit is byte-identical
 * to formatting again. Best effort: an unreadable entry is a miss, an unwritable directory is ignored.
 */
export interface FormatCache {
  get(key: string): string | undefined;
  /** Held for this run's later `get`s at once; on disk for the next run after `close`. */
  set(key: string, formatted: string): void;
  /** Finishes what this run wrote (one pack, see `createFormatCache`) and lets go of the cache's files. */
  close(): void;
}

// What prettier's output depends on besides the contents and parser; treaty's version, so that an
// upgrade never reads entries an older treaty wrote.
const SALT = JSON.stringify({ treaty: TREATY_VERSION, prettier: PRETTIER_VERSION, options: PRETTIER_OPTIONS });

/** The cache key of an emitted (unformatted) file. */
export const formatKey = (file: Pick<EmittedFile, "contents" | "language">): string =>
  createHash("sha256").update(SALT).update("\0").update(parserOf(file.language)).update("\0").update(file.contents).digest("hex");

/**
 * The cache key of the statements last formatted for the file at `path` (relative to the output
 * directory), by their own keys: a file that changed keeps most of its statements.
 */
export const statementsKey = (path: string): string => createHash("sha256").update(SALT).update("\0statements of\0").update(path).digest("hex");

/**
 * `TREATY_CACHE_DIR` when set (a CI cache, or one cache for many throwaway projects), else
 * `node_modules/.cache/treaty` of the nearest package at or above `root` (as find-cache-dir does);
 * undefined if neither.
 */
export const findCacheDir = (root: string): string | undefined => {
  const chosen = process.env["TREATY_CACHE_DIR"];
  if (chosen) return chosen;
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return join(dir, "node_modules", ".cache", "treaty");
    if (dirname(dir) === dir) return undefined;
  }
};


/*
 * The cache is a directory of packs. A pack is one run's entries in one file: the entries' bytes one
 * after another, then an index (each key's offset, length and checksum, under a checksum of its
 * own), then where the index begins. A run writes its pack under a temporary name and renames it
 * when the pack is whole, so a reader only ever opens whole packs; an entry is believed only if its
 * checksum verifies. One file a run where there was one a formatted file (a cold run of 200
 * contracts wrote 7,808 entries, at about 145 µs each for the write and the rename: a tenth of the
 * run).
 */
const PACKS = "format-packs";
/** Where treaty kept an entry a file before packs: nothing reads it now, and the first run that writes removes it. */
const LEGACY = "formatted";
const MAGIC = "treaty format pack 1\n";
/** The last bytes of a pack: where its index begins, as 19 digits and a newline. */
const TRAILER = 20;
/** Bytes of entries gathered before they are written: one system call for dozens of entries. */
const FLUSH = 1 << 20;
export interface CacheLimits {
  /** Packs kept before all but the largest are merged into one: each run that formats something adds one, and the next run's first lookup reads every index. */
  readonly packs: number;
  /** Bytes of packs kept at most: past it, the oldest packs go. */
  readonly bytes: number;
}
const LIMITS: CacheLimits = { packs: 8, bytes: 2 ** 30 };
/** A pack still being written (a `.tmp`) this long after its last write is a killed run's. */
const ABANDONED_MS = 6 * 3600 * 1000;

const sumOf = (bytes: Uint8Array | string): string => createHash("sha256").update(bytes).digest("hex").slice(0, 32);

/** One pack, open for reading: its descriptor keeps it readable should another run merge and remove it. */
interface Pack {
  readonly fd: number;
}
type IndexEntry = [key: string, offset: number, length: number, sum: string];
interface Slot {
  readonly pack: Pack;
  readonly offset: number;
  readonly length: number;
  readonly sum: string;
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

/** The index of the pack at `path`, and the pack opened; undefined where it is not a whole pack. */
const openPack = (path: string): { pack: Pack; entries: IndexEntry[] } | undefined => {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    if (size < MAGIC.length + TRAILER || readAt(fd, 0, MAGIC.length).toString() !== MAGIC) throw new Error("not a pack");
    const at = Number(readAt(fd, size - TRAILER, TRAILER).toString());
    if (!Number.isSafeInteger(at) || at < MAGIC.length || at > size - TRAILER) throw new Error("no index");
    const text = readAt(fd, at, size - TRAILER - at).toString();
    const body = text.slice(33);
    if (text[32] !== "\n" || text.slice(0, 32) !== sumOf(body)) throw new Error("index spoiled");
    const entries = JSON.parse(body) as unknown;
    const valid = (e: unknown): e is IndexEntry =>
      Array.isArray(e) && typeof e[0] === "string" && Number.isSafeInteger(e[1]) && Number.isSafeInteger(e[2]) && e[1] >= MAGIC.length && e[1] + e[2] <= at && typeof e[3] === "string";
    if (!Array.isArray(entries) || !entries.every(valid)) throw new Error("index spoiled");
    return { pack: { fd }, entries };
  } catch {
    if (fd !== undefined) quietly(() => closeSync(fd!));
    return undefined;
  }
};

/** The entry in `slot`, or undefined where it cannot be read or its checksum does not verify. */
const readSlot = (slot: Slot): string | undefined => {
  try {
    const bytes = readAt(slot.pack.fd, slot.offset, slot.length);
    return sumOf(bytes) === slot.sum ? bytes.toString("utf8") : undefined;
  } catch {
    return undefined;
  }
};

let packsMade = 0;
/** A new pack's name: packs are read in the order of their names, a later entry for a key over an earlier one. */
const packName = (): string =>
  `${String(Date.now()).padStart(15, "0")}-${String(packsMade++).padStart(6, "0")}-${process.pid}-${Math.random().toString(36).slice(2, 10)}.pack`;

/** A pack being written in `dir`: entries appended, read back from the same file, renamed into place when whole. */
const createPackWriter = (dir: string) => {
  makeDirs(dir);
  const temp = join(dir, `${packName()}.tmp`);
  const fd = openSync(temp, "wx+");
  const pack: Pack = { fd };
  const entries: IndexEntry[] = [];
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
    pack,
    /** Appends `bytes` under `key`; where it is. */
    append: (key: string, bytes: Buffer, sum = sumOf(bytes)): Slot => {
      const slot = { pack, offset: size, length: bytes.length, sum };
      entries.push([key, size, bytes.length, sum]);
      pending.push(bytes);
      size += bytes.length;
      if (size - flushed >= FLUSH) flush();
      return slot;
    },
    /** Makes what `slot` points to readable from the file. */
    ensureWritten: (slot: Slot): void => {
      if (slot.offset + slot.length > flushed) flush();
    },
    get count(): number {
      return entries.length;
    },
    /** Writes the index and gives the pack its final name (in `dir`). */
    finish: (): void => {
      const body = JSON.stringify(entries);
      const index = Buffer.from(`${sumOf(body)}\n${body}`);
      const trailer = Buffer.from(`${String(size).padStart(TRAILER - 1, "0")}\n`);
      pending.push(index, trailer);
      size += index.length + trailer.length;
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

/** The packs in `dir` by name (oldest first), each with its size; a killed run's temporary packs removed. */
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
      const read = openPack(join(dir, name));
      if (!read) continue;
      opened.push(read.pack);
      for (const [key, offset, length, sum] of read.entries) latest.set(key, { pack: read.pack, offset, length, sum });
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

/**
 * A cache in `dir` (undefined: caches nothing). With `readOnly`, never writes (for `--check`). The
 * packs are read at the first lookup (a run that formats nothing opens none); this run's entries
 * go to a pack of its own, readable by this run at once and by the next once `close` renamed it.
 */
export const createFormatCache = (dir: string | undefined, options: { readOnly: boolean; limits?: CacheLimits }): FormatCache => {
  if (dir === undefined) return { get: () => undefined, set: () => {}, close: () => {} };
  const packsDir = join(dir, PACKS);
  let writable = !options.readOnly;
  let slots: Map<string, Slot> | undefined;
  const opened: Pack[] = [];
  let writer: PackWriter | undefined;
  const index = (): Map<string, Slot> => {
    if (slots === undefined) {
      slots = new Map();
      for (const { name } of listPacks(packsDir, false)) {
        const read = openPack(join(packsDir, name));
        if (!read) continue;
        opened.push(read.pack);
        for (const [key, offset, length, sum] of read.entries) slots.set(key, { pack: read.pack, offset, length, sum });
      }
    }
    return slots;
  };
  /** Stops writing: what this run appended is dropped (its slots would point at nothing). */
  const stopWriting = (): void => {
    writable = false;
    if (!writer) return;
    for (const [key, slot] of index()) if (slot.pack === writer.pack) slots!.delete(key);
    writer.drop();
    writer = undefined;
  };
  return {
    get: (key) => {
      const slot = index().get(key);
      if (slot === undefined) return undefined;
      if (slot.pack === writer?.pack) {
        try {
          writer.ensureWritten(slot);
        } catch {
          stopWriting();
          return undefined;
        }
      }
      return readSlot(slot);
    },
    set: (key, formatted) => {
      if (!writable) return;
      try {
        writer ??= createPackWriter(packsDir);
        index().set(key, writer.append(key, Buffer.from(formatted)));
      } catch {
        stopWriting(); // not writable here: run uncached rather than fail
      }
    },
    close: () => {
      if (writer && writable) {
        let finished = false;
        try {
          writer.finish();
          finished = true;
        } catch {
          writer.drop();
        }
        if (finished) {
          tidy(packsDir, options.limits ?? LIMITS);
          quietly(() => rmSync(join(dir, LEGACY), { recursive: true, force: true }));
        }
      }
      writer = undefined;
      writable = false;
      for (const pack of opened) quietly(() => closeSync(pack.fd));
      opened.length = 0;
      slots = undefined;
    },
  };
};
