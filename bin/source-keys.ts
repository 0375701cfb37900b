// Finds where a setup error's key (`fields.titel`, `titel`) is written in the application's source, so the CLI
// points at the offending key's line rather than at the `.use(` call that threw. A small scanner, not a parser (a
// project need not have TypeScript installed): it skips comments, strings and template literals, and records each
// object key with the chain of keys (or `const name =`) that holds its object.
import fs from 'node:fs';

/** An object key in the source: its path from the outermost object, and where it starts. */
interface SourceKey {
  readonly path: readonly string[];
  readonly offset: number;
}

/** An open bracket, and the key whose value it is part of (null when none). */
interface Open {
  readonly char: string;
  readonly owner: readonly string[] | null;
  /** In an object: the key whose value is being read (until a comma). */
  pending: readonly string[] | null;
  /** Where the bracket opened, so a call or an object can be measured. */
  readonly offset: number;
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/y;
const CLOSING: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** Every object key of `text`; and for each bracket, the offset of its matching closing one. */
function scan(text: string): { keys: SourceKey[]; closes: Map<number, number> } {
  const keys: SourceKey[] = [];
  const closes = new Map<number, number>();
  const stack: Open[] = [{ char: '', owner: null, pending: null, offset: -1 }];
  let previous = ''; // the last significant token
  let declared: string | null = null; // `const name =` just read: the object that follows is `name`'s
  let i = 0;
  const top = (): Open => stack[stack.length - 1];
  const nextSignificant = (from: number): string => {
    let j = from;
    for (;;) {
      while (/\s/.test(text[j] ?? '')) j++;
      if (text.startsWith('//', j)) j = text.indexOf('\n', j) === -1 ? text.length : text.indexOf('\n', j);
      else if (text.startsWith('/*', j)) j = text.indexOf('*/', j) === -1 ? text.length : text.indexOf('*/', j) + 2;
      else return text[j] ?? '';
    }
  };
  const addKey = (name: string, offset: number, end: number): void => {
    const open = top();
    if (open.char !== '{' || (previous !== '{' && previous !== ',')) return;
    const after = nextSignificant(end);
    if (after !== ':' && after !== '(' && after !== ',' && after !== '}') return;
    const path = [...(open.owner ?? []), name];
    keys.push({ path, offset });
    open.pending = path;
  };

  while (i < text.length) {
    const char = text[i];
    if (/\s/.test(char)) {
      i++;
    } else if (text.startsWith('//', i) || text.startsWith('/*', i)) {
      const end = text.startsWith('//', i) ? text.indexOf('\n', i) : text.indexOf('*/', i) + 2;
      i = end <= 0 ? text.length : end;
    } else if (char === "'" || char === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== char && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      addKey(text.slice(i + 1, j), i, j + 1);
      previous = 'string';
      i = j + 1;
    } else if (char === '`' || (char === '}' && top().char === '${')) {
      // A template literal, or its continuation after `${…}`: up to the closing backtick or the next `${`.
      if (char === '}') stack.pop();
      let j = i + 1;
      while (j < text.length && text[j] !== '`' && !text.startsWith('${', j)) j += text[j] === '\\' ? 2 : 1;
      if (text.startsWith('${', j)) {
        stack.push({ char: '${', owner: null, pending: null, offset: j });
        j++;
      }
      previous = 'template';
      i = j + 1;
    } else if (char === '(' || char === '[' || char === '{') {
      const enclosing = top();
      const owner = char === '{' && previous === '=' && declared !== null ? [declared] : enclosing.pending ?? enclosing.owner;
      stack.push({ char, owner, pending: null, offset: i });
      previous = char;
      declared = null;
      i++;
    } else if (char === ')' || char === ']' || char === '}') {
      while (stack.length > 1 && top().char !== CLOSING[char]) stack.pop(); // unbalanced: recover
      const closed = stack.length > 1 ? stack.pop()! : top();
      closes.set(closed.offset, i);
      previous = char;
      i++;
    } else {
      IDENTIFIER.lastIndex = i;
      const word = IDENTIFIER.exec(text)?.[0];
      if (word === undefined) {
        if (char === ',') top().pending = null;
        if (char === ';') declared = null;
        previous = char;
        i++;
        continue;
      }
      addKey(word, i, i + word.length);
      if (previous === 'const' || previous === 'let' || previous === 'var') declared = word;
      previous = word;
      i += word.length;
    }
  }
  return { keys, closes };
}

/** 1-based line and column of `offset`. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split('\n');
  return lines.length < line ? -1 : lines.slice(0, line - 1).reduce((sum, current) => sum + current.length + 1, 0) + column - 1;
}

function endsWith(path: readonly string[], suffix: readonly string[]): boolean {
  return suffix.length <= path.length && suffix.every((segment, index) => path[path.length - suffix.length + index] === segment);
}

/** Where to look first: a line and column (a stack frame's), or the first match of a pattern (`export default`). */
export type Near = { line: number; column: number } | RegExp;

/**
 * Where `keyPath` is written in `file`: a key whose chain of enclosing keys ends with it, first inside the brackets
 * that open after `near` (the call a stack frame points at, the object after `export default`), else the only such
 * key in the file, else the only key named like its last segment. Undefined when the file cannot be read or the key
 * is not written out (a spread, a computed key).
 */
export function locateKey(file: string, keyPath: readonly string[], near?: Near): { line: number; column: number } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const { keys, closes } = scan(text);
  const matching = keys.filter((key) => endsWith(key.path, keyPath));
  const start = near === undefined ? -1 : near instanceof RegExp ? (near.exec(text)?.index ?? -1) : offsetOf(text, near.line, near.column);
  if (start !== -1) {
    const open = text.slice(start).search(/[({]/) + start;
    const close = closes.get(open);
    const inside = close === undefined ? undefined : matching.find((key) => key.offset > open && key.offset < close);
    if (inside !== undefined) return position(text, inside.offset);
  }
  if (matching.length === 1) return position(text, matching[0].offset);
  const named = keys.filter((key) => key.path[key.path.length - 1] === keyPath[keyPath.length - 1]);
  return named.length === 1 ? position(text, named[0].offset) : undefined;
}

/** The key path a SetupError's message starts with, after its `service.resource: ` label: `fields.titel`, `titel`. */
export function setupErrorKeyPath(message: string): string[] | undefined {
  const rest = message.replace(/^[\w.-]+: /, '');
  const match = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?= is | must | \(|: |$)/.exec(rest);
  return match === null ? undefined : match[1].split('.');
}
