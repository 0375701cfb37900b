// Bundle diffs in review show only what changed (CONTRACT §7): building twice gives byte-identical files,
// and changing one field policy changes only that resource's files (its validators module among them, named after
// it and written one statement per line, issue 31), plus its entries in each global file.
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

  it('after one field policy changes, hold only that resource\'s files, its validators module and its entries in the global files', async () => {
    const source = fs.readFileSync(entry, 'utf8');
    const edited = source.replace("content: { read: true, create: true, update: true, filter: ['contains', 'isNull', 'isNotNull'] },", "content: { read: true, create: true, update: true, filter: ['contains'] },");
    expect(edited).not.toBe(source);
    fs.writeFileSync(entry, edited);
    await build(entry, path.join(folder.path, 'edited'));
    const after = readTree(path.join(folder.path, 'edited'));

    const changed = changedPaths(before, after);
    const resourceFiles = changed.filter((file) => file.startsWith('handlers/blog/notes/') || file.startsWith('statements/blog.notes.') || file === 'validators/blog.notes.js');
    // entry.cjs is the application itself, whose source changed; compilation.js names the notes document's new
    // fingerprint, on one line. No file comes or goes: manifest.json is the same.
    expect(changed.filter((file) => !resourceFiles.includes(file))).toEqual(['client.ts', 'compilation.js', 'contract.json', 'entry.cjs', 'openapi.json']);
    const [compilationBefore, compilationAfter] = [before, after].map((tree) => tree.get('compilation.js')!.split('\n'));
    expect(compilationBefore.filter((line) => !compilationAfter.includes(line))).toEqual([expect.stringContaining("'blog.notes': { fingerprint: ")]);
    // `where` changed: only the notes resource module, which holds its policy, and its validators; no route module.
    expect(resourceFiles).toEqual(['handlers/blog/notes/resource.js', 'validators/blog.notes.js']);
    // The validators changed where the where grammar did, not all over: most lines are the same, in the same order.
    const [validatorsBefore, validatorsAfter] = [before, after].map((tree) => tree.get('validators/blog.notes.js')!.split('\n'));
    const kept = validatorsBefore.filter((line) => validatorsAfter.includes(line)).length;
    expect(kept / validatorsBefore.length).toBeGreaterThan(0.5);
    expect(Math.max(...validatorsAfter.map((line) => line.length))).toBeLessThan(2000);

    const span = changedSpan(before.get('client.ts')!, after.get('client.ts')!);
    // One contiguous region of client.ts: it starts in the notes actions and ends before the first tasks one.
    expect({ from: span.first >= firstLineOf(before.get('client.ts')!, 'BlogNotes'), to: span.lastBefore < firstLineOf(before.get('client.ts')!, 'BlogTasks') }).toEqual({ from: true, to: true });

    // contract.json: only the notes actions and the notes definitions differ.
    const [contractBefore, contractAfter] = [before, after].map((tree) => JSON.parse(tree.get('contract.json')!));
    contractBefore.actions.forEach((action: { name: string }, index: number) => {
      if (!action.name.startsWith('notes.')) expect(contractAfter.actions[index]).toEqual(action);
    });
    for (const [def, schema] of Object.entries(contractBefore.$defs)) {
      if (!def.startsWith('blog.notes.')) expect(contractAfter.$defs[def]).toEqual(schema);
    }
    expect(contractAfter.$defs).not.toEqual(contractBefore.$defs);

    const [documentBefore, documentAfter] = [before, after].map((tree) => JSON.parse(tree.get('openapi.json')!));
    for (const [pathName, operations] of Object.entries(documentBefore.paths)) {
      if (!pathName.startsWith('/api/notes')) expect(documentAfter.paths[pathName]).toEqual(operations);
    }
    for (const [component, schema] of Object.entries(documentBefore.components.schemas)) {
      if (!component.startsWith('blog.notes.')) expect(documentAfter.components.schemas[component]).toEqual(schema);
    }
  }, BUILD_TIMEOUT_MS);
});
