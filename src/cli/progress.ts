import type { Progress } from "../generate.js";
import type { CliIo } from "./command.js";

/** A run shorter than this shows no progress: the line would only flicker. */
const QUIET_FOR_MS = 1000;
/** At most so many redraws a second. */
const REDRAW_MS = 100;

export interface ProgressLine {
  update(progress: Progress): void;
  /** Clears the line before the summary prints. */
  end(): void;
}

/**
 * One line on a terminal (`treaty: emitting 120/1000 contracts`), redrawn in place once a run has
 * taken a second; nothing when stderr is not a terminal (CI, a pipe) or with `--quiet`.
 */
export const createProgressLine = (io: CliIo, enabled: boolean): ProgressLine => {
  if (!enabled || !io.interactive) return { update: () => {}, end: () => {} };
  const started = performance.now();
  let drawnAt = 0;
  let drawn = false;
  return {
    update: (progress) => {
      const now = performance.now();
      if (now - started < QUIET_FOR_MS || now - drawnAt < REDRAW_MS) return;
      drawnAt = now;
      drawn = true;
      const count = progress.total === 0 ? "" : progress.phase === "emitting" ? ` ${progress.done}/${progress.total} contracts` : ` ${progress.total} contracts`;
      io.stderr(`\r\x1b[2Ktreaty: ${progress.phase}${count}`);
    },
    end: () => {
      if (drawn) io.stderr("\r\x1b[2K");
    },
  };
};
