import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Reads `+<pgid>` / `-<pgid>` lines; when its stdin closes (the backend exited, crashed or was
 * SIGKILLed with the kernel), SIGKILLs every group still registered. Plain sh: nothing to load.
 */
const REAPER_SCRIPT = [
  "g=' '",
  'while IFS= read -r l; do',
  '  case $l in',
  '    +*) g="$g${l#+} " ;;',
  '    -*) p=${l#-}; case $g in *" $p "*) g="${g%%" $p "*} ${g#*" $p "}" ;; esac ;;',
  '  esac',
  'done',
  'for p in $g; do kill -KILL -"$p" 2>/dev/null; done',
].join('\n');

/**
 * Commands run in process groups of their own, so killing the backend's group (what the
 * kernel does on exit) does not reach them, and the backend's own clean-up never runs after a
 * SIGKILL. The reaper is a tiny process in a session of its own that outlives the backend by
 * exactly as long as it takes to kill the registered groups: the pipe from the backend is
 * its lifeline, and the kernel closes it by any exit path.
 */
export class GroupReaper {
  #child: ChildProcess | undefined;
  readonly #groups = new Set<number>();

  /** Registers a command's process group; the returned function unregisters it once it is dead. */
  track(pgid: number): () => void {
    this.#groups.add(pgid);
    this.#send(`+${pgid}\n`);
    return () => {
      if (this.#groups.delete(pgid)) this.#send(`-${pgid}\n`);
    };
  }

  #send(line: string): void {
    if (this.#child) this.#child.stdin?.write(line);
    else this.#start(); // a new reaper is told every live group, this change included
  }

  /** A reaper that died (killed by hand) is replaced and told every live group again. */
  #start(): void {
    const child = spawn('/bin/sh', ['-c', REAPER_SCRIPT], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    this.#child = child;
    child.once('exit', () => {
      if (this.#child === child) this.#child = undefined;
    });
    child.on('error', () => undefined);
    child.stdin?.on('error', () => undefined); // EPIPE after it died: the exit handler replaces it
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    for (const pgid of this.#groups) child.stdin?.write(`+${pgid}\n`);
  }
}

/** One reaper per backend process. */
export const reaper = new GroupReaper();
