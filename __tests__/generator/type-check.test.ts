// The build's type check (generator/bundle/type-check.ts) says what the project's own tsc says, since it runs that
// tsc, on the entry, what it imports and the project's declaration files; never the project's other files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuildError } from '../../generator/errors';
import { typeCheckEntry } from '../../generator/bundle/type-check';
import { linkPackages, removeFolder } from '../helpers/bundles';

const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: [] } };

/** A project: an entry importing a module with a type error, a global declaration, and a broken file nobody imports. */
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'checked', private: true, type: 'module' }),
  'globals.d.ts': 'declare const BUILD_LABEL: string;\n',
  'app.ts': "import { total } from './sum.js';\n\nexport const label: string = `${BUILD_LABEL} ${total}`;\n",
  'sum.ts': 'export const total: number = "three";\n',
  'unused.test.ts': 'export const broken: number = null;\n',
};

const SUM_ERROR = "sum.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.\n";

describe("the type check with the project's own tsc", () => {
  let folder: string;
  const cwd = process.cwd();
  const writeConfig = (config: object) => fs.writeFileSync(path.join(folder, 'tsconfig.json'), JSON.stringify(config));

  beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-type-check-'));
    linkPackages(folder);
    for (const [file, text] of Object.entries(FILES)) fs.writeFileSync(path.join(folder, file), text);
    // Paths in the report are relative to the working directory, as tsc prints them.
    process.chdir(folder);
  });

  afterAll(() => {
    process.chdir(cwd);
    removeFolder(folder);
  });

  it('reports the errors of the entry and what it imports, with the global declarations, and not of other files', async () => {
    writeConfig(TSCONFIG);
    expect(await typeCheckEntry(path.join(folder, 'app.ts'))).toEqual({ errorCount: 1, report: SUM_ERROR });
  }, 60_000);

  it('checks a part of a composite project without asking for its whole file list', async () => {
    writeConfig({ ...TSCONFIG, compilerOptions: { ...TSCONFIG.compilerOptions, composite: true, noEmit: undefined } });
    expect(await typeCheckEntry(path.join(folder, 'app.ts'))).toEqual({ errorCount: 1, report: SUM_ERROR });
  }, 60_000);

  it("checks the entry when the tsconfig's include matches none of the project's files", async () => {
    writeConfig({ ...TSCONFIG, include: ['src/**/*'] });
    const { errorCount, report } = await typeCheckEntry(path.join(folder, 'app.ts'));
    expect(errorCount).toBe(2);
    expect(report).toBe(`app.ts(3,33): error TS2304: Cannot find name 'BUILD_LABEL'.\n${SUM_ERROR}`);
  }, 60_000);

  it('uses strict defaults without a tsconfig.json (a global declaration is then not seen, as tsc would not see it)', async () => {
    fs.rmSync(path.join(folder, 'tsconfig.json'), { force: true });
    expect(await typeCheckEntry(path.join(folder, 'app.ts'))).toEqual({ errorCount: 2, report: `app.ts(3,33): error TS2304: Cannot find name 'BUILD_LABEL'.\n${SUM_ERROR}` });
  }, 60_000);

  it('reports a broken tsconfig as the build error, with what tsc said', async () => {
    writeConfig({ compilerOptions: { target: 'ES1999' } });
    await expect(typeCheckEntry(path.join(folder, 'app.ts'))).rejects.toThrow(expect.objectContaining({ message: 'tsconfig.json is not a valid tsconfig', report: expect.stringContaining("error TS6046: Argument for '--target' option must be") }));
  }, 60_000);

  it('checks a JavaScript entry only with checkJs, as tsc does', async () => {
    fs.writeFileSync(path.join(folder, 'plain.js'), 'export const count = 1;\ncount.push(2);\n');
    writeConfig(TSCONFIG);
    expect(await typeCheckEntry(path.join(folder, 'plain.js'))).toEqual({ errorCount: 0, report: '' });
    writeConfig({ ...TSCONFIG, compilerOptions: { ...TSCONFIG.compilerOptions, allowJs: true, checkJs: true } });
    expect(await typeCheckEntry(path.join(folder, 'plain.js'))).toEqual({ errorCount: 1, report: "plain.js(2,7): error TS2339: Property 'push' does not exist on type '1'.\n" });
  }, 60_000);

  it('leaves no tsconfig of its own behind in the project', async () => {
    writeConfig(TSCONFIG);
    await typeCheckEntry(path.join(folder, 'app.ts'));
    expect(fs.readdirSync(path.join(folder, 'node_modules', '.cache', 'tessera')).filter((file) => file.startsWith('tsconfig'))).toEqual([]);
  }, 60_000);
});

describe('a project without a working TypeScript', () => {
  const folders: string[] = [];
  /** A project of one entry, in a folder of its own (module resolution remembers what it found). */
  const project = (entry: string): string => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-type-check-none-'));
    folders.push(folder);
    linkPackages(folder, { without: ['typescript'] });
    fs.writeFileSync(path.join(folder, entry), 'export const ok = 1;\n');
    return path.join(folder, entry);
  };

  afterAll(() => folders.forEach(removeFolder));

  it('stops the build of a TypeScript entry when TypeScript is not installed, saying what to do', async () => {
    expect(() => typeCheckEntry(project('app.ts'))).toThrow(
      new BuildError("tessera build type-checks with the project's TypeScript, and none is installed: npm install --save-dev typescript, or build with --no-typecheck"),
    );
  });

  it('has nothing to check in a JavaScript entry when TypeScript is not installed', async () => {
    expect(await typeCheckEntry(project('app.js'))).toEqual({ errorCount: 0, report: '' });
  });

  it('stops the build when the installed TypeScript does not run, naming its tsc and its first line of complaint', async () => {
    const entry = project('app.ts');
    const typescript = path.join(path.dirname(entry), 'node_modules', 'typescript');
    fs.mkdirSync(path.join(typescript, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(typescript, 'package.json'), JSON.stringify({ name: 'typescript', version: '0.0.0', bin: { tsc: './bin/tsc' } }));
    fs.writeFileSync(path.join(typescript, 'bin', 'tsc'), "process.stderr.write('tsc: the compiler binary is missing\\n');\nprocess.exit(9);\n");
    await expect(typeCheckEntry(entry)).rejects.toThrow(/^the project's TypeScript \(.*node_modules\/typescript\/bin\/tsc\) could not run: tsc: the compiler binary is missing$/);
  }, 60_000);
});
