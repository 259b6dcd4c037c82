// What the compatibility engine reports: every difference between two versions of a contract,
// judged in both directions. The checker (bump rules), `treaty diff` and `treaty compat` all read this.
import type { SourceLocation } from "../ir/model.js";

/**
 * backward: a reader on the NEW version reads data written under the OLD one.
 * forward:  a reader on the OLD version reads data written under the NEW one.
 */
export type Direction = "backward" | "forward";

export type Verdict = "compatible" | "breaking";

/** Stable names for kinds of difference; tests and reports match on them. */
export type DifferenceKind =
  | "field-added"
  | "field-removed"
  | "field-renamed"
  | "field-moved"
  | "field-required"
  | "field-optional"
  | "nullable-added"
  | "nullable-removed"
  | "type-changed"
  | "type-widened"
  | "type-narrowed"
  | "constraint-narrowed"
  | "constraint-widened"
  | "constraint-changed"
  | "enum-value-added"
  | "enum-value-removed"
  | "enum-fallback-added"
  | "enum-fallback-removed"
  | "enum-fallback-changed"
  | "variant-added"
  | "variant-removed"
  | "ref-scheme-changed"
  | "contract-ref-changed"
  | "unknown-fields-opened"
  | "unknown-fields-closed"
  | "description-changed"
  | "definition-added"
  | "definition-removed";

export interface Difference {
  readonly kind: DifferenceKind;
  /**
   * JSON pointer of the place in the payload ("" for the root). `*` stands for any list item, any
   * map value or any undeclared key; `(re)` for the keys matching pattern `re`; a tuple position is its index.
   */
  readonly path: string;
  readonly backward: Verdict;
  readonly forward: Verdict;
  /** One line a reviewer understands without the schema in front of them. */
  readonly reason: string;
  /** When both directions break for different reasons: the reason as told for each direction alone. */
  readonly perDirection?: { readonly backward: string; readonly forward: string };
  /** Where the change is written: the declared change, or the field in the newer version. */
  readonly loc?: SourceLocation;
}

/** The bump a set of differences needs: none, minor (backward-compatible), or major. */
export type Bump = "none" | "minor" | "major";

/** What fails in `direction`, without what fails in the other. */
export const reasonIn = (difference: Difference, direction: Direction): string => difference.perDirection?.[direction] ?? difference.reason;
