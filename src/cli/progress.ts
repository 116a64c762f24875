/**
 * Progress of a long step on stderr, shown only once the step has taken more than a second
 * (a quick step stays silent): one rewritten line on a terminal, plain lines otherwise.
 */
export const PROGRESS_DELAY_MS = 1000;

export interface Progress {
  update(line: string): void;
  done(): void;
}

export function stderrProgress(stream: NodeJS.WriteStream = process.stderr, delayMs = PROGRESS_DELAY_MS): Progress {
  const start = Date.now();
  const tty = Boolean(stream.isTTY);
  let current = '';
  let shown = '';
  let drawn = false;
  const draw = () => {
    if (!current || current === shown) return;
    shown = current;
    if (tty) {
      stream.write(`\r${current}\x1b[K`);
      drawn = true;
    } else stream.write(`${current}\n`);
  };
  const timer = setTimeout(draw, delayMs);
  timer.unref();
  return {
    update(line) {
      current = line;
      if (Date.now() - start >= delayMs) draw();
    },
    done() {
      clearTimeout(timer);
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
      current = '';
    },
  };
}
