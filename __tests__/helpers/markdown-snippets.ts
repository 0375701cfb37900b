// The TypeScript blocks of a Markdown page, as the docs type-check reads them (__tests__/docs/typescript-snippets.test.ts).
// HTML comments on the lines right before a block say what it needs (GitHub and the reference page hide them):
//   <!-- fragment -->                              part of a larger call or object: not checked;
//   <!-- unchecked: <why> -->                      a whole file the check cannot compile (another tool's config);
//   <!-- given: declare const token: string; -->   names the block takes from its surroundings, compiled before it;
//   <!-- lib: DOM -->                              what the block's recipe adds to the tsconfig's `lib`.
// A block whose first line is `// <path>.ts` is that file of the project (`// config.ts`, then `from './config.js'`).

export interface Snippet {
  /** `docs/access.md:12`: the page and the line of the block's opening fence. */
  readonly source: string;
  /** The file named by the block's first line (`config.ts`), or undefined. */
  readonly path: string | undefined;
  /** The declarations of its `given:` comment, compiled before it ('' without one). */
  readonly given: string;
  /** What its `lib:` comment adds to the tsconfig's `lib` (none without one). */
  readonly lib: readonly string[];
  readonly code: string;
}

const FENCE = /^( *)```ts\s*$/;
const NAMED_FILE = /^\/\/ ([\w./-]+\.ts)\s*$/;
const DIRECTIVE = /^\s*<!--\s*(fragment|unchecked:|given:|lib:)([\s\S]*?)-->\s*$/;

/** Every ```ts block of `markdown` but the fragments and unchecked ones, with the page's name (`page`) for messages. */
export function typeScriptSnippets(page: string, markdown: string): Snippet[] {
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = FENCE.exec(lines[index]);
    if (fence === null) continue;
    const indent = fence[1];
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && lines[index] !== `${indent}\`\`\``; index++) body.push(lines[index].slice(indent.length));
    const directives = directivesBefore(lines, start, page);
    if (directives.has('fragment') || directives.has('unchecked:')) continue;
    const lib = (directives.get('lib:') ?? '').split(/[\s,]+/).filter((name) => name !== '');
    snippets.push({ source: `${page}:${start + 1}`, path: NAMED_FILE.exec(body[0] ?? '')?.[1], given: directives.get('given:') ?? '', lib, code: body.join('\n') + '\n' });
  }
  return snippets;
}

/** The directive comments on the lines right before `fence`, one per line, by kind (a comment may span lines). */
function directivesBefore(lines: readonly string[], fence: number, page: string): Map<string, string> {
  const directives = new Map<string, string>();
  for (let end = fence - 1; end >= 0 && /-->\s*$/.test(lines[end]); ) {
    let first = end;
    while (first > 0 && !lines[first].includes('<!--')) first--;
    const match = DIRECTIVE.exec(lines.slice(first, end + 1).join('\n'));
    if (match === null) throw new Error(`${page}:${first + 1}: a comment before a ts block must be fragment, unchecked:, given: or lib:`);
    directives.set(match[1], match[2].trim());
    end = first - 1;
  }
  return directives;
}
