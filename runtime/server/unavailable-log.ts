// The error log's lines for SERVICE_UNAVAILABLE, aggregated (issue 32): an outage answers thousands of 503s a
// second, one line each drowned the log (2,888 lines in 5 s). The first 503 of a reason is written at once; the
// others of the same second are counted and written as one line when the second ends. Other errors stay one line each.

/** How long 503s of one reason are counted before their line is written. */
export const UNAVAILABLE_LOG_WINDOW_MS = 1000;

export class UnavailableLog {
  readonly #write: (message: string) => void;
  /** Per reason: the 503s since its last line. A reason with none in a window is forgotten, so its next 503 is written at once. */
  readonly #counts = new Map<string, number>();
  #timer: NodeJS.Timeout | null = null;

  constructor(write: (message: string) => void) {
    this.#write = write;
  }

  /** `line` is the whole line of this 503 (route and cause); `reason` what its aggregated line counts by (the cause). */
  note(reason: string, line: string): void {
    const count = this.#counts.get(reason);
    if (count !== undefined) {
      this.#counts.set(reason, count + 1);
      return;
    }
    this.#write(line);
    this.#counts.set(reason, 0);
    if (this.#timer === null) {
      this.#timer = setInterval(() => this.#flush(), UNAVAILABLE_LOG_WINDOW_MS);
      this.#timer.unref(); // a pending count never keeps a stopping process alive
    }
  }

  #flush(): void {
    for (const [reason, count] of this.#counts) {
      if (count === 0) {
        this.#counts.delete(reason);
        continue;
      }
      this.#write(`SERVICE_UNAVAILABLE ×${count} more in the last ${UNAVAILABLE_LOG_WINDOW_MS / 1000} s: ${reason}`);
      this.#counts.set(reason, 0);
    }
    if (this.#counts.size === 0 && this.#timer !== null) {
      clearInterval(this.#timer);
      this.#timer = null;
    }
  }
}
