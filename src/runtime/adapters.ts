// What generated adapters and the hand-written stubs beside the contracts use.

/** A place in a payload of one version, as a JSON pointer into it. */
export interface Located {
  readonly version: string;
  readonly path: string;
}

/** What adapters record while they convert, so that nothing changes silently. */
export interface AdaptLog {
  /** Values the next version has no place for, where they were. */
  readonly dropped: Located[];
  /** Values put in from declared defaults, where they went. */
  readonly filled: Located[];
}

export const createAdaptLog = (): AdaptLog => ({ dropped: [], filled: [] });

/** What a stub throws until someone writes it. */
export class AdapterNotImplemented extends Error {
  readonly code = "adapter-not-implemented";
  constructor(
    readonly contract: string,
    readonly stub: string,
  ) {
    super(`${contract}: the adapter stub '${stub}' is not written yet; its doc comment says what it must do`);
    this.name = "AdapterNotImplemented";
  }
}

/** Records that a declared default went in at `path` of the `version` payload, and returns it. */
export const filled = <T>(log: AdaptLog, version: string, path: string, value: T): T => {
  log.filled.push({ version, path });
  return value;
};

/**
 * A value the target version may not hold (a narrowing going down); the target's validator decides.
 * Typed `any`, not `never`: an object holding it may still be asserted to be the target's type.
 */
export const unchecked = (value: unknown): any => value;

/** The type of the field at the dotted `Path` of `T`, when present. */
export type FieldAt<T, Path extends string> = Path extends `${infer Head}.${infer Rest}`
  ? FieldAt<NonNullable<T[Head & keyof T]>, Rest>
  : Exclude<T[Path & keyof T], undefined>;

/** The hand-written half of a version with a `custom` change: both directions of its step. */
export interface CustomStep<Older, Newer> {
  /**
   * `draft` is what treaty derived from the version's other changes; return the finished value.
   * treaty names no dropped values for a custom step: push into `log.dropped` what this does not carry over.
   */
  upgrade(source: Older, draft: Newer, log: AdaptLog): Newer;
  /** `draft` is what treaty derived going back; return the finished value. */
  downgrade(source: Newer, draft: Older, log: AdaptLog): Older;
}
