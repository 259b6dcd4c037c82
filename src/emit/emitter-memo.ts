// What an emitter worked out (a declaration, a precompiled template), by a key: seeded before its
// first use with what an earlier run kept (src/incremental/emitter-memos.ts reads and writes the
// cache directory), and kept for the next run when this run added to it. Bounded in characters:
// past the bound, the earliest are forgotten.

export interface EmitterMemo {
  /** What `key` gave, if known; the first call reads the seed. */
  get(key: string): string | undefined;
  /** What this run worked out for `key`. */
  add(key: string, value: string): void;
  /** How earlier runs' entries are found, read on first use (again for each run seeded). */
  seed(load: () => Iterable<readonly [string, string]>): void;
  /** Every entry, for the next run; undefined when this process added none. */
  toKeep(): [string, string][] | undefined;
}

export const createEmitterMemo = (boundChars = Infinity): EmitterMemo => {
  const entries = new Map<string, string>();
  let held = 0;
  let added = false;
  let pending: (() => Iterable<readonly [string, string]>) | undefined;
  const remember = (key: string, value: string): void => {
    if (entries.has(key)) return;
    entries.set(key, value);
    held += value.length;
    for (const [earliest, text] of entries) {
      if (held <= boundChars) break;
      entries.delete(earliest);
      held -= text.length;
    }
  };
  return {
    get: (key) => {
      if (pending) {
        const load = pending;
        pending = undefined;
        for (const [k, v] of load()) remember(k, v);
      }
      return entries.get(key);
    },
    add: (key, value) => {
      added = true;
      remember(key, value);
    },
    seed: (load) => {
      pending = load;
    },
    toKeep: () => (added ? [...entries] : undefined),
  };
};
