// `treaty generate --watch`: one run, then one more each time a saved change could change the output.
// Runs never overlap: changes that arrive during a run are gathered into the next one.
import { basename, sep } from "node:path";

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
    basename(path).endsWith(".treaty-tmp");

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

  const watcher = chokidarWatch([options.idlDir, ...files], { ignoreInitial: true, ignored });
  watcher.on("all", (event, path) => {
    if (!closed && callsForRun(event, path, files)) schedule();
  });
  watcher.on("error", (error) => options.onError(error));

  const ready = (async () => {
    await new Promise<void>((done) => watcher.once("ready", () => done()));
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
      await watcher.close();
      await ready.catch(() => {});
      await running;
    },
  };
};
