// The Docs tab's content with the real marked and @mdx-js/mdx: .md and .mdx pages rendered to HTML on
// first view and kept, components from the components module, and no way to reach a file by name.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SetupError } from 'tessera-api';
import { createDocumentationSite } from '../../runtime/docs/documentation-site';
import { nativeImport } from '../helpers/native-import';

const REPO_ROOT = path.resolve(__dirname, '../..');
// Jest cannot import() ES modules itself; Node's loader does it (see the helper).
const libraries = { importModule: nativeImport };

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
}

describe('createDocumentationSite', () => {
  let root: string;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-site-')));
    writeFiles(root, {
      'docs/index.md': '# Welcome\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<span class="raw">raw HTML stays</span>\n',
      'docs/guides/badges.mdx': [
        "export const kinds = ['new', 'beta']",
        '',
        '# Badges',
        '',
        'Kinds: {kinds.join(" & ")}, and 1 &lt; 2.',
        '',
        '<Badge tone="green">Shipped *today*</Badge>',
        '',
      ].join('\n'),
      'docs/broken.mdx': '# Broken\n\n<Unclosed>\n',
      'docs/missing-component.mdx': '# Missing\n\n<Nowhere />\n',
      'secret.md': '# Outside the folder\n',
      'components.js': "exports.Badge = ({ tone, children }) => `<span class=\"badge badge-${tone}\">${children}</span>`;\n",
    });
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('lists the pages with their titles at construction', () => {
    const site = createDocumentationSite('docs', { baseDir: root, libraries });
    expect(site.pages).toEqual([
      { slug: 'index', title: 'Welcome' },
      { slug: 'broken', title: 'Broken' },
      { slug: 'guides/badges', title: 'Badges' },
      { slug: 'missing-component', title: 'Missing' },
    ]);
  });

  it('renders a .md page with marked (GFM tables; the author\'s raw HTML passes, as in any static site)', async () => {
    const site = createDocumentationSite('docs', { baseDir: root, libraries });
    const page = await site.render('index');
    expect(page).toEqual({ slug: 'index', title: 'Welcome', html: expect.stringContaining('<h1>Welcome</h1>') });
    expect(page!.html).toContain('<td>1</td>');
    expect(page!.html).toContain('<span class="raw">raw HTML stays</span>');
  });

  it('runs a .mdx page: exports and expressions evaluate, markdown inside components renders, text stays escaped', async () => {
    const site = createDocumentationSite({ dir: 'docs', components: 'components.js' }, { baseDir: root, libraries });
    const page = await site.render('guides/badges');
    expect(page!.html).toBe('<h1>Badges</h1>\n<p>Kinds: new &amp; beta, and 1 &lt; 2.</p>\n<span class="badge badge-green">Shipped <em>today</em></span>');
  });

  it('answers a page that fails to render with its error, and the other pages still render', async () => {
    const site = createDocumentationSite({ dir: 'docs', components: 'components.js' }, { baseDir: root, libraries });
    const broken = await site.render('broken');
    expect(broken).toEqual({ slug: 'broken', title: 'Broken', html: null, error: expect.stringMatching(/^broken\.mdx: .*Unclosed/) });
    const missing = await site.render('missing-component');
    expect(missing!.error).toBe('missing-component.mdx: Expected component `Nowhere` to be defined: you likely forgot to import, pass, or provide it.');
    expect((await site.render('index'))!.html).toContain('<h1>Welcome</h1>');
  });

  it('renders each page once and keeps it until its file changes', async () => {
    const site = createDocumentationSite('docs', { baseDir: root, libraries });
    const first = await site.render('index');
    expect(await site.render('index')).toBe(first);
    fs.writeFileSync(path.join(root, 'docs/index.md'), '# Changed\n');
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(root, 'docs/index.md'), later, later);
    expect(await site.render('index')).toEqual({ slug: 'index', title: 'Welcome', html: '<h1>Changed</h1>\n' });
  });

  it('answers null for a page whose file was deleted since construction', async () => {
    const site = createDocumentationSite('docs', { baseDir: root, libraries });
    fs.rmSync(path.join(root, 'docs/index.md'));
    expect(await site.render('index')).toBeNull();
  });

  it('knows only the listed slugs: paths, traversal and other spellings are not pages', async () => {
    const site = createDocumentationSite('docs', { baseDir: root, libraries });
    for (const slug of ['../secret', 'guides/../index', '/etc/passwd', 'index.md', 'guides\\badges', '', 'constructor', '__proto__']) {
      expect(await site.render(slug)).toBeNull();
    }
  });

  it('reports a components module that fails to load on the pages that need it', async () => {
    fs.writeFileSync(path.join(root, 'components.js'), "throw new Error('components exploded');\n");
    const site = createDocumentationSite({ dir: 'docs', components: 'components.js' }, { baseDir: root, libraries });
    expect((await site.render('guides/badges'))!.error).toBe('badges.mdx: documentation.components: components.js failed to load: components exploded');
  });

  it('throws the SetupError for missing libraries at construction, before any page is asked for', () => {
    expect(() => createDocumentationSite('docs', { baseDir: root, libraries: { searchFolders: [root] } })).toThrow(SetupError);
  });

  it("renders the blog fixture's guides, its component coming from fixtures/blog/docs/components.ts", async () => {
    const site = createDocumentationSite({ dir: 'docs', components: './docs/components.ts' }, { baseDir: path.join(REPO_ROOT, 'fixtures/blog'), libraries });
    expect(site.pages).toEqual([
      { slug: 'getting-started', title: 'Getting started' },
      { slug: 'policies', title: 'Access policies' },
    ]);
    expect((await site.render('policies'))!.html).toContain('<aside class="callout callout-note"><strong>note:</strong> Tasks need a bearer token (a JSON Web Token); notes do not.</aside>');
  });
});
