// The guide's links stay valid: every link from README.md or a docs page to a page of the repository and to a
// heading of it (`docs/performance.md#on-mariadb`, `#scale`) names a file that exists and a heading it has, with
// GitHub's rules for heading anchors.
import fs from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../..');
const PAGES = ['README.md', ...fs.readdirSync(path.join(REPO_ROOT, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];

/** GitHub's anchor of a heading: lower case, code and bold marks and punctuation but `-` and `_` dropped, spaces as hyphens; repeats get -1, -2. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const plain = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const base = plain.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    let anchor = base;
    for (let index = 1; anchors.has(anchor); index++) anchor = `${base}-${index}`;
    anchors.add(anchor);
  }
  return anchors;
}

describe('links between the pages of the guide', () => {
  it.each(PAGES)('%s links only to pages and headings that exist', (page) => {
    const markdown = fs.readFileSync(path.join(REPO_ROOT, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    const broken: string[] = [];
    for (const [, target] of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split('#');
      const linked = file === '' ? path.join(REPO_ROOT, page) : path.resolve(path.dirname(path.join(REPO_ROOT, page)), file);
      if (!fs.existsSync(linked)) broken.push(`${target}: no such file`);
      else if (anchor !== undefined && linked.endsWith('.md') && !anchorsOf(fs.readFileSync(linked, 'utf8')).has(anchor)) broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});
