// One format for every generated file, used by both paths (in-process compile and `tessera build`), so
// the two texts are equal: each line re-indented by bracket depth with 2 spaces, LF, one blank line at
// most, a final newline. Cheap enough to run at every construction (ts-morph's formatter took 0.2 s
// for one validator), and the emitters already write one statement per line.

export const FORMAT = Object.freeze({ indent: '  ', newLine: '\n' });

const OPENERS = new Set(['{', '(', '[']);
const CLOSERS = new Set(['}', ')', ']']);

/** The bracket depth change of one line of code, skipping string and template literals and line comments. */
function depthChange(line: string): number {
  let change = 0;
  let quote: string | null = null;
  for (let index = 0; index < line.length; index++) {
    const char = line[index];
    if (quote !== null) {
      if (char === '\\') index++;
      else if (char === quote) quote = null;
      continue;
    }
    if (char === '"' || char === "'" || char === '`') quote = char;
    else if (char === '/' && line[index + 1] === '/') break;
    else if (OPENERS.has(char)) change++;
    else if (CLOSERS.has(char)) change--;
  }
  return change;
}

/** How many closing brackets open the line (they belong to the outer level). */
function leadingClosers(line: string): number {
  let count = 0;
  while (count < line.length && CLOSERS.has(line[count])) count++;
  return count;
}

export function formatSource(text: string): string {
  const lines: string[] = [];
  let depth = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') {
      if (lines.length > 0 && lines[lines.length - 1] !== '') lines.push('');
      continue;
    }
    const level = Math.max(0, depth - leadingClosers(line));
    lines.push(FORMAT.indent.repeat(level) + line);
    depth = Math.max(0, depth + depthChange(line));
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join(FORMAT.newLine) + FORMAT.newLine;
}
