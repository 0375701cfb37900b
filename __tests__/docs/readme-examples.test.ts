// The README's examples are the code users copy: the application it shows is the one `tessera init` writes
// (which the packaged-install test runs), and its commands name what the package really has.
import fs from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../..');
const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

/** The first fenced block after `marker`. */
function blockAfter(marker: string): string {
  const start = readme.indexOf(marker);
  if (start === -1) throw new Error(`README has no "${marker}"`);
  const match = /```\w*\n([\s\S]*?)```/.exec(readme.slice(start));
  if (match === null) throw new Error(`no code block after "${marker}"`);
  return match[1];
}

describe('README', () => {
  it('shows exactly the app.ts that tessera init writes', () => {
    expect(blockAfter('`app.ts` is the whole application:')).toBe(fs.readFileSync(path.join(REPO_ROOT, 'templates/init/app.ts'), 'utf8'));
  });

  it('runs the scripts the init project has', () => {
    const scripts = Object.keys((JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    for (const script of ['start', 'test']) expect(scripts).toContain(script);
    expect(blockAfter('## Five minutes')).toContain('npx tessera-api init my-api');
  });

  it('links every guide page that exists, and only those', () => {
    const linked = [...new Set([...readme.matchAll(/\]\(docs\/([a-z-]+\.md)\)/g)].map((match) => match[1]))].sort();
    const pages = fs.readdirSync(path.join(REPO_ROOT, 'docs')).filter((file) => file.endsWith('.md')).sort();
    expect(linked).toEqual(pages);
  });
});
