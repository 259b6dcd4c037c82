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
  const fresh = (base: string): string => {
    const clean = base.replace(/[^A-Za-z0-9_]/g, "_");
    let name = clean;
    for (let n = 2; bases.has(name); n++) name = `${clean}_${n}`;
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
