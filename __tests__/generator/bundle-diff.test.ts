// Bundle diffs in review show only what changed (CONTRACT §7): building twice gives byte-identical files,
// and changing one field policy changes only that resource's files plus one hunk of each global file.
import fs from 'node:fs';
import path from 'node:path';
import { build, changedPaths, readTree, REPO_ROOT, temporaryFolder } from '../helpers/bundles';

const BUILD_TIMEOUT_MS = 60_000;

/** The first and last line of `before` that differ from `after` (the span a diff's hunks cover), 0-based. */
function changedSpan(before: string, after: string): { first: number; lastBefore: number } {
  const a = before.split('\n');
  const b = after.split('\n');
  let first = 0;
  while (first < a.length && first < b.length && a[first] === b[first]) first++;
  let fromEnd = 0;
  while (fromEnd < a.length - first && fromEnd < b.length - first && a[a.length - 1 - fromEnd] === b[b.length - 1 - fromEnd]) fromEnd++;
  return { first, lastBefore: a.length - 1 - fromEnd };
}

/** The first line mentioning `marker`, 0-based. */
function firstLineOf(text: string, marker: string): number {
  return text.split('\n').findIndex((line) => line.includes(marker));
}

describe('bundle diffs', () => {
  const folder = temporaryFolder('bundle-diff');
  let entry: string;
  let before: Map<string, string>;

  beforeAll(async () => {
    // A copy of the blog fixture, so one policy can be edited; its bundles sit side by side.
    fs.cpSync(path.join(REPO_ROOT, 'fixtures/blog'), path.join(folder.path, 'app'), { recursive: true });
    entry = path.join(folder.path, 'app', 'app.ts');
    await build(entry, path.join(folder.path, 'first'));
    before = readTree(path.join(folder.path, 'first'));
  }, BUILD_TIMEOUT_MS);

  it('are empty between two builds of the same entry: every file byte-identical', async () => {
    await build(entry, path.join(folder.path, 'second'));
    const again = readTree(path.join(folder.path, 'second'));
    expect([...again.keys()]).toEqual([...before.keys()]);
    expect(changedPaths(before, again)).toEqual([]);
  }, BUILD_TIMEOUT_MS);

  it('after one field policy changes, hold only that resource\'s files and one hunk of contract.json and client.ts', async () => {
    const source = fs.readFileSync(entry, 'utf8');
    const edited = source.replace("content: { read: true, create: true, update: true, filter: ['contains', 'isNull', 'isNotNull'] },", "content: { read: true, create: true, update: true, filter: ['contains'] },");
    expect(edited).not.toBe(source);
    fs.writeFileSync(entry, edited);
    await build(entry, path.join(folder.path, 'edited'));
    const after = readTree(path.join(folder.path, 'edited'));

    const changed = changedPaths(before, after);
    const resourceFiles = changed.filter((file) => file.startsWith('handlers/blog/notes/') || file.startsWith('statements/blog.notes.'));
    // entry.cjs is the application itself, whose source changed.
    expect(changed.filter((file) => !resourceFiles.includes(file))).toEqual(['client.ts', 'contract.json', 'entry.cjs', 'openapi.json']);
    // `where` changed: only the notes resource module, which holds its policy and validators; no route module.
    expect(resourceFiles).toEqual(['handlers/blog/notes/resource.js']);

    for (const file of ['contract.json', 'client.ts']) {
      const span = changedSpan(before.get(file)!, after.get(file)!);
      const notes = firstLineOf(before.get(file)!, file === 'client.ts' ? 'BlogNotes' : '"notes.');
      const tasks = firstLineOf(before.get(file)!, file === 'client.ts' ? 'BlogTasks' : '"tasks.');
      // One contiguous region: it starts in the notes actions and ends before the first tasks one.
      expect({ file, from: span.first >= notes, to: span.lastBefore < tasks }).toEqual({ file, from: true, to: true });
    }

    const [documentBefore, documentAfter] = [before, after].map((tree) => JSON.parse(tree.get('openapi.json')!));
    for (const [pathName, operations] of Object.entries(documentBefore.paths)) {
      if (!pathName.startsWith('/api/notes')) expect(documentAfter.paths[pathName]).toEqual(operations);
    }
    for (const [component, schema] of Object.entries(documentBefore.components.schemas)) {
      if (!component.startsWith('blog.notes.')) expect(documentAfter.components.schemas[component]).toEqual(schema);
    }
  }, BUILD_TIMEOUT_MS);
});
