// `treaty generate --watch`: one run, then one more each time a saved change could change the output.
// Runs never overlap: changes that arrive during a run are gathered into the next one.
import { lstatSync, realpathSync, statSync, watch as watchDir } from "node:fs";
import { basename, dirname, sep } from "node:path";
import type { FSWatcher } from "chokidar";
import { isWithin } from "../load/read-sources.js";

export interface WatchOptions {
  /** The contracts directory. */
  readonly idlDir: string;
  /** Files outside it whose change also means a run: the config file. */
  readonly files: readonly string[];
  /** Never looked into (the output directory: a run's own writes are no reason for another). */
  readonly ignoredDirs: readonly string[];
  /** One generate and its report. A rejection is reported through `onError` and the watch goes on. */
  readonly run: () => Promise<void>;
  readonly onError: (error: unknown) => void;
  /** How long a burst of saves must be quiet before the run (an editor's save is several events). */
  readonly settleMs?: number;
}

export interface Watching {
  /** Resolves once the first run is done and changes are being watched. */
  readonly ready: Promise<void>;
  /** Stops watching; resolves after the run under way, if any, has finished. */
  close(): Promise<void>;
}

const isContract = (path: string): boolean => path.endsWith(".yaml") || path.endsWith(".yml");

/** The events that call for a run: a contract or agent file saved, added or removed, a watched file changed, any file under the contracts directory removed (a hand-written adapters or agent file: the run puts its stubs back). */
const callsForRun = (event: string, path: string, files: ReadonlySet<string>): boolean =>
  files.has(path) || (event === "unlink" ? true : (event === "add" || event === "change") && isContract(path));

/**
 * Whether `path` is a directory link the contracts' listing does not follow (`symlink-loop`): to the
 * directory it is in or one above it, or to one holding the contracts directory. chokidar follows
 * links, and through one to the project root it watched the whole project.
 */
const loopLink = (path: string, idlDir: string): boolean => {
  try {
    if (!lstatSync(path).isSymbolicLink()) return false;
    const target = realpathSync(path);
    return [realpathSync(idlDir), realpathSync(dirname(path))].some((dir) => isWithin(dir, target));
  } catch {
    // leads nowhere: nothing to watch through it
    return false;
  }
};

/**
 * Watches with chokidar (loaded only here: nothing else in treaty needs it). Node's own recursive
 * `fs.watch` is JavaScript on Linux, with known bugs in the Node versions treaty supports: a race
 * between its asynchronous tree walk and the watches it sets up that loses events in new
 * directories (nodejs/node#48437), and an uncaught ENOENT when a watched file is deleted
 * (nodejs/node#52018). It passed this watch's test on Node 20.20 here; chokidar is the
 * well-kept alternative whose behaviour does not hang on the Node minor a user has.
 */
export const watch = async (options: WatchOptions): Promise<Watching> => {
  const { watch: chokidarWatch } = await import("chokidar");
  const files = new Set(options.files);
  const ignoredDirs = options.ignoredDirs;
  const ignored = (path: string): boolean =>
    ignoredDirs.some((dir) => path === dir || path.startsWith(dir + sep)) ||
    path.split(sep).some((part) => part === "node_modules" || part === ".git") ||
    basename(path).endsWith(".treaty-tmp") ||
    loopLink(path, options.idlDir);

  let running: Promise<void> | undefined;
  let pending = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const runOnce = async (): Promise<void> => {
    try {
      await options.run();
    } catch (error) {
      options.onError(error);
    }
  };
  // Runs until no change is pending; a change during a run marks one more.
  const drain = async (): Promise<void> => {
    while (pending && !closed) {
      pending = false;
      await runOnce();
    }
    running = undefined;
  };
  const schedule = (): void => {
    pending = true;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!running) running = drain();
    }, options.settleMs ?? 50);
  };

  const watchTree = async (): Promise<FSWatcher> => {
    const tree = chokidarWatch([options.idlDir, ...files], { ignoreInitial: true, ignored });
    tree.on("all", (event, path) => {
      if (!closed && callsForRun(event, path, files)) schedule();
    });
    tree.on("error", (error) => options.onError(error));
    await new Promise<void>((done) => tree.once("ready", () => done()));
    return tree;
  };

  // The watches of a directory follow it, not its name: once the contracts directory is removed
  // (`rm -rf idl && mkdir idl`) or renamed away (a checkout that swaps it), they see nothing of the
  // directory made in its place. Its parent is watched (that one directory only) for the name
  // coming to lead elsewhere; then its tree is watched anew and a run reports what is there now.
  const identity = (): string | undefined => {
    try {
      const stats = statSync(options.idlDir);
      return `${stats.dev}:${stats.ino}`;
    } catch {
      return undefined;
    }
  };
  let seen = identity();
  let watcher: Promise<FSWatcher> = watchTree();
  const rewatch = async (): Promise<void> => {
    while (!closed && identity() !== seen) {
      seen = identity();
      const old = await watcher;
      watcher = watchTree();
      await old.close();
      await watcher;
      schedule();
    }
  };
  let rewatching = Promise.resolve();
  const idlName = basename(options.idlDir);
  let parent: ReturnType<typeof watchDir> | undefined;
  try {
    parent = watchDir(dirname(options.idlDir), (_event, name) => {
      if (!closed && (name === null || name === idlName)) rewatching = rewatching.then(rewatch).catch(options.onError);
    });
    // The parent removed too (the project itself): nothing is left to watch for.
    parent.on("error", () => parent?.close());
  } catch {
    // a parent that cannot be watched: the contracts directory is followed while it stays
  }

  const ready = (async () => {
    await watcher;
    running = runOnce().then(() => {
      running = undefined;
      if (pending) running = drain();
    });
    await running;
  })();

  return {
    ready,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      parent?.close();
      await rewatching;
      await (await watcher).close();
      await ready.catch(() => {});
      await running;
    },
  };
};
