// The configuration files docs pages show, read from the pages themselves: a test runs exactly what a reader
// copies, so the two cannot drift. A block is the fenced code block after a `<!-- config: NAME -->` line.
import fs from 'node:fs';
import path from 'node:path';

const DOCS = path.resolve(__dirname, '../../docs');

/** The text of the block marked `<!-- config: name -->` in docs/<page>, without its fences. */
export function docsConfig(page: string, name: string): string {
  const text = fs.readFileSync(path.join(DOCS, page), 'utf8');
  const marker = `<!-- config: ${name} -->`;
  const at = text.indexOf(marker);
  if (at === -1 || text.indexOf(marker, at + 1) !== -1) throw new Error(`docs/${page} must hold exactly one ${marker}`);
  const block = /^\s*```[a-z]*\n([\s\S]*?)\n```/.exec(text.slice(at + marker.length));
  if (block === null) throw new Error(`docs/${page}: ${marker} is not followed by a fenced code block`);
  return `${block[1]}\n`;
}

/**
 * The block with each `from` replaced by its `to` (addresses and paths of the test's own): each `from` must occur
 * exactly once, so a changed page fails here rather than running something else.
 */
export function withReplacements(config: string, replacements: Readonly<Record<string, string>>): string {
  let result = config;
  for (const [from, to] of Object.entries(replacements)) {
    const parts = result.split(from);
    if (parts.length !== 2) throw new Error(`the config must hold ${JSON.stringify(from)} exactly once, found ${parts.length - 1}`);
    result = parts.join(to);
  }
  return result;
}
