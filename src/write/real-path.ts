// Where a path leads once symlinks are followed, also where it does not exist yet (what writing
// there would make): an output directory is compared with the contracts by it, and written there.
import { readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** Links followed past this many are a loop (Linux's own limit): the path is left as it is, and writing there fails. */
const MAX_LINKS = 40;

/** `path`, absolute, with every symlink in it followed, a dangling one included. */
export const realPath = (path: string): string => {
  let links = 0;
  const real = (at: string): string => {
    try {
      return realpathSync(at);
    } catch {
      // not there yet, or a link to where nothing is
    }
    const parent = dirname(at);
    if (parent === at) return at;
    const inParent = join(real(parent), basename(at));
    let target: string;
    try {
      target = readlinkSync(inParent);
    } catch {
      return inParent; // no link: made where it is
    }
    return ++links > MAX_LINKS ? inParent : real(resolve(dirname(inParent), target));
  };
  return real(resolve(path));
};
