/** Collects the module-level declarations of a generated validator, each built once. */
export interface Hoister {
  /**
   * The identifier base of the declaration known as `key`, building it on first use. `build` gets
   * the base and returns the declaration text. A keyed declaration's base is reserved before
   * `build` runs, so recursive types refer to themselves. One never shared by key (`key`
   * undefined), which nothing but its user refers to, is built with a stand-in base and is the
   * earlier one when the two read the same: a contract's identical inline types (a hundred fields of
   * `list of string`) share one set of functions.
   */
  hoist(key: string | undefined, base: string, build: (base: string) => string): string;
  /** In first-use order: a declaration precedes the ones it uses. */
  declarations(): readonly string[];
  /** The base of the declaration known as `key`, if it was hoisted. */
  known(key: string): string | undefined;
}

/** Stands for an anonymous declaration's base while it is built: no generated text holds a raw NUL. */
const STAND_IN = "\u0000";

export const createHoister = (): Hoister => {
  const bases = new Set<string>();
  const known = new Map<string, string>();
  // Anonymous declarations by their text with the stand-in base, to the base they got.
  const anonymous = new Map<string, string>();
  const declarations: string[] = [];
  // The suffix each base's next search starts from: a base is taken more than once (a wide object's
  // parts, 600 of them at 20,000 fields), and searching from 2 each time was quadratic. Names are
  // never given back, so every suffix below it is still taken: the name found is the same.
  const nextSuffix = new Map<string, number>();
  const fresh = (base: string): string => {
    const clean = base.replace(/[^A-Za-z0-9_]/g, "_");
    let name = clean;
    let n = nextSuffix.get(clean) ?? 2;
    if (bases.has(name)) {
      for (name = `${clean}_${n}`; bases.has(name); ) name = `${clean}_${++n}`;
      nextSuffix.set(clean, n + 1);
    }
    bases.add(name);
    return name;
  };
  return {
    hoist: (key, base, build) => {
      const existing = key === undefined ? undefined : known.get(key);
      if (existing !== undefined) return existing;
      const slot = declarations.push("") - 1;
      if (key !== undefined) {
        const name = fresh(base);
        known.set(key, name);
        declarations[slot] = build(name);
        return name;
      }
      const text = build(STAND_IN);
      const same = anonymous.get(text);
      if (same !== undefined) return same;
      const name = fresh(base);
      anonymous.set(text, name);
      declarations[slot] = text.replaceAll(STAND_IN, name);
      return name;
    },
    declarations: () => declarations.filter((declaration) => declaration !== ""),
    known: (key) => known.get(key),
  };
};
