// Approvals of agent calls (DESIGN.md §8): a token bound to one session, one agent, one canonical
// input and an expiry, HMAC-SHA-256-signed with the host's secret. OTAIP's approval was any
// non-empty string checked after the side effect; this one is checked before `execute` and is
// single-use (the pipeline consumes its id in the event store).
import { canonicalHash, canonicalJson } from "./canonical-json.js";
import { randomId, type FailureKind } from "./errors.js";
import { hmacSha256, toHex, utf8 } from "./sha256.js";

/** What the host hands the pipeline with a call it approved. Plain data: it survives JSON. */
export interface ApprovalToken {
  /** Unique per token: what the store consumes, so the token works once. */
  readonly id: string;
  readonly session: string;
  readonly agent: string;
  /** `canonicalHash(input)` of the one input approved. */
  readonly inputHash: string;
  /** Milliseconds since the epoch; from this instant on the token is expired. */
  readonly expiresAt: number;
  /** Lower-case hex HMAC-SHA-256 of the other fields' canonical JSON under the host's secret. */
  readonly signature: string;
}

export interface ApprovalRequest {
  readonly session: string;
  readonly agent: string;
  readonly input: unknown;
  /** How long the token stays valid, in milliseconds. */
  readonly ttl: number;
}

/** What the call presenting a token is: the token must name exactly this. */
export interface ApprovalCall {
  readonly session: string;
  readonly agent: string;
  readonly inputHash: string;
}

/** The `FAILURES` kinds of a refused approval. */
export type ApprovalFailureKind = Extract<FailureKind, `approval-${string}`>;

export type ApprovalCheck = { readonly ok: true; readonly id: string } | { readonly ok: false; readonly kind: ApprovalFailureKind };

export interface Approvals {
  /** A token for one call; the host issues it once a human (or its policy) approved that call. */
  issue(request: ApprovalRequest): ApprovalToken;
  /** Whether `token` approves `call` (everything but single use, which the store decides). */
  verify(token: unknown, call: ApprovalCall): ApprovalCheck;
}

export interface ApprovalOptions {
  /** The host's signing key, at least 32 bytes; kept out of every sink, like the pii key. */
  readonly secret: string | Uint8Array;
  /** The clock, in milliseconds since the epoch (tests inject one). */
  readonly now?: () => number;
  /** Token ids; random UUIDs unless given. */
  readonly tokenId?: () => string;
}

const MIN_SECRET = 32;

const FIELDS = ["id", "session", "agent", "inputHash", "expiresAt", "signature"] as const;

const isToken = (value: unknown): value is ApprovalToken => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const token = value as Record<string, unknown>;
  return (
    Object.keys(token).length === FIELDS.length &&
    FIELDS.every((key) => Object.hasOwn(token, key)) &&
    ["id", "session", "agent", "inputHash", "signature"].every((key) => typeof token[key] === "string") &&
    Number.isSafeInteger(token["expiresAt"])
  );
};

/** Compares in time independent of where the strings differ, so a signature cannot be guessed byte by byte. */
const sameText = (a: string, b: string): boolean => {
  let differ = a.length ^ b.length;
  for (let i = 0; i < Math.min(a.length, b.length); i++) differ |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return differ === 0;
};

export const createApprovals = (options: ApprovalOptions): Approvals => {
  const key = typeof options.secret === "string" ? utf8(options.secret) : options.secret;
  if (key.length < MIN_SECRET) throw new TypeError(`createApprovals: the secret must be at least ${MIN_SECRET} bytes`);
  const now = options.now ?? Date.now;
  const tokenId = options.tokenId ?? (() => randomId("APR"));
  const sign = (token: Omit<ApprovalToken, "signature">): string =>
    toHex(hmacSha256(key, utf8(canonicalJson({ id: token.id, session: token.session, agent: token.agent, inputHash: token.inputHash, expiresAt: token.expiresAt }))));

  return {
    issue({ session, agent, input, ttl }) {
      if (!(Number.isSafeInteger(ttl) && ttl > 0)) throw new TypeError("approvals.issue: ttl is a whole number of milliseconds above 0");
      const unsigned = { id: tokenId(), session, agent, inputHash: canonicalHash(input), expiresAt: now() + ttl };
      return { ...unsigned, signature: sign(unsigned) };
    },

    // Forgery first: nothing a token claims counts until its signature is this host's.
    verify(token, call) {
      if (!isToken(token) || !sameText(sign(token), token.signature)) return { ok: false, kind: "approval-forged" };
      if (token.session !== call.session) return { ok: false, kind: "approval-other-session" };
      if (token.agent !== call.agent) return { ok: false, kind: "approval-other-agent" };
      if (token.inputHash !== call.inputHash) return { ok: false, kind: "approval-other-input" };
      if (now() >= token.expiresAt) return { ok: false, kind: "approval-expired" };
      return { ok: true, id: token.id };
    },
  };
};
