// One format for every generated file, used by both paths (in-process compile and `tessera build`), so
// the two texts are equal: 2-space indentation by bracket nesting, LF, one blank line at most, a final
// newline. Cheap enough to run at every construction (ts-morph's formatter took 0.2 s for one
// validator), and the emitters already write one statement per line.

export const FORMAT = Object.freeze({ indent: '  ', newLine: '\n' });

const OPENERS = new Set(['{', '(', '[']);
const CLOSERS = new Set(['}', ')', ']']);

/**
 * The open indentation levels. A line indents its body one level however many brackets it opens
 * (`foo({` indents once, as Prettier does), so each level counts the brackets still open on it; a line
 * that closes part of a level and opens again (`}, {`) stays on that level.
 */
class Nesting {
  readonly #levels: number[] = [];

  /** Applies one line's brackets, skipping string and template literals and line comments. */
  apply(line: string): void {
    // The top level was opened, or partly closed, on this line: more openers join it.
    let joinsTop = false;
    let quote: string | null = null;
    for (let index = 0; index < line.length; index++) {
      const char = line[index];
      if (quote !== null) {
        if (char === '\\') index++;
        else if (char === quote) quote = null;
      } else if (char === '"' || char === "'" || char === '`') quote = char;
      else if (char === '/' && line[index + 1] === '/') break;
      else if (OPENERS.has(char)) {
        if (joinsTop) this.#levels[this.#levels.length - 1]++;
        else this.#levels.push(1);
        joinsTop = true;
      } else if (CLOSERS.has(char) && this.#levels.length > 0) {
        const top = this.#levels.length - 1;
        joinsTop = --this.#levels[top] > 0;
        if (!joinsTop) this.#levels.pop();
      }
    }
  }

  /** The depth a line starts at: every level its leading closers touch is closed for this line. */
  depthBefore(line: string): number {
    let depth = this.#levels.length;
    let remaining = depth > 0 ? this.#levels[depth - 1] : 0;
    let touchesTop = false;
    for (let index = 0; index < line.length && CLOSERS.has(line[index]) && depth > 0; index++) {
      touchesTop = true;
      if (--remaining === 0) {
        depth--;
        touchesTop = false;
        remaining = depth > 0 ? this.#levels[depth - 1] : 0;
      }
    }
    return touchesTop ? depth - 1 : depth;
  }
}

export function formatSource(text: string): string {
  const lines: string[] = [];
  const nesting = new Nesting();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') {
      if (lines.length > 0 && lines[lines.length - 1] !== '') lines.push('');
      continue;
    }
    lines.push(FORMAT.indent.repeat(nesting.depthBefore(line)) + line);
    nesting.apply(line);
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join(FORMAT.newLine) + FORMAT.newLine;
}
