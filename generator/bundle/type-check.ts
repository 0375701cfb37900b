// `tessera build` type-checks the application before it writes anything: the entry and every file it imports
// (packages excluded), with the project's tsconfig.json (else strict defaults), reported as tsc reports them. The
// check runs the project's own TypeScript (its tsc, whatever the version, TypeScript 7's native compiler included),
// so the build says what the project's editor and `npx tsc` say. `tessera start` does not check: it stays fast.
// tsc runs in its own process, so the build loads the entry and generates the bundle meanwhile (build.ts).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BuildError } from '../errors';

export interface TypeCheckResult {
  /** Errors in the application's files (or its tsconfig); errors inside packages do not count. */
  readonly errorCount: number;
  /** The errors as tsc prints them: `app.ts(3,7): error TS2322: …`, one or more lines each. */
  readonly report: string;
}

/** What a project without a tsconfig.json is checked with: what `tessera init` writes, in short. */
const DEFAULT_COMPILER_OPTIONS = {
  strict: true,
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  esModuleInterop: true,
  skipLibCheck: true,
  resolveJsonModule: true,
};

/** The check writes nothing, and checks a part of a project that may be a composite one. */
const CHECK_OPTIONS = { noEmit: true, composite: false, incremental: false };

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;
const JAVASCRIPT = /\.(js|mjs|cjs|jsx)$/;
/** tsc's "No inputs were found in config file". */
const NO_INPUTS = 'TS18003';

/** tsc's tsconfig for the check: the project's own (extended) or the defaults, narrowed to `files`. */
interface CheckConfig {
  readonly extends?: string;
  readonly compilerOptions: Record<string, unknown>;
  readonly files: readonly string[];
  readonly include: readonly string[];
}

/** The nearest `name` from `folder` up (tsc finds a tsconfig.json so, Node a node_modules), or undefined. */
function nearest(folder: string, name: string): string | undefined {
  for (let current = folder; ; current = path.dirname(current)) {
    const candidate = path.join(current, name);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}

/** The project's `tsc`, as `npx tsc` in the entry's folder finds it; undefined when TypeScript is not installed. */
function projectCompiler(entryPath: string): string | undefined {
  let manifest: string;
  try {
    manifest = require.resolve('typescript/package.json', { paths: [path.dirname(entryPath)] });
  } catch {
    return undefined;
  }
  const bin = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin?: { tsc?: string } }).bin?.tsc;
  return bin === undefined ? undefined : path.join(path.dirname(manifest), bin);
}

/** Runs tsc; 0 is no error, 1 and 2 are errors reported on stdout, anything else is tsc itself failing. */
function runCompiler(tsc: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [tsc, ...args], { cwd: process.cwd(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      // A number `code` is tsc's exit status: 1 and 2 are the errors it found, reported on stdout.
      if (error === null || error.code === 1 || error.code === 2) return resolve(stdout);
      // Otherwise tsc failed or was ended by a signal (its first line of complaint says why), or never ran.
      const ran = typeof error.code === 'number' || typeof error.signal === 'string';
      const reason = ran ? stderr.trim().split('\n')[0] || `exit ${error.code ?? error.signal}` : error.message;
      reject(new BuildError(`the project's TypeScript (${path.relative(process.cwd(), tsc)}) could not run: ${reason}`));
    });
  });
}

interface ProjectSettings {
  /** The project's declaration files, absolute. */
  readonly declarations: readonly string[];
  readonly checkJs: boolean;
}

/** What tsc resolves the project's tsconfig to (`--showConfig`: its options and every file it includes). */
async function projectSettings(tsc: string, configPath: string): Promise<ProjectSettings> {
  const output = await runCompiler(tsc, ['--pretty', 'false', '-p', configPath, '--showConfig']);
  let shown: { compilerOptions?: { checkJs?: boolean }; files?: string[] };
  try {
    shown = JSON.parse(output) as typeof shown;
  } catch {
    // TypeScript 5 does not show a config whose `include` matches nothing: the project then declares nothing.
    const errors = diagnosticBlocks(output);
    if (errors.length > 0 && errors.every((error) => error.startsWith(`error ${NO_INPUTS}:`))) return { declarations: [], checkJs: false };
    // Otherwise tsc printed its errors about the tsconfig: they are the check's errors.
    throw new BuildError(`${path.relative(process.cwd(), configPath)} is not a valid tsconfig`, { report: output });
  }
  const folder = path.dirname(configPath);
  const declarations = (shown.files ?? []).filter((file) => file.endsWith('.d.ts')).map((file) => path.resolve(folder, file));
  return { declarations, checkJs: shown.compilerOptions?.checkJs === true };
}

/** One diagnostic of tsc's `--pretty false` output: its first line, then its indented continuation lines. */
function diagnosticBlocks(output: string): string[] {
  const blocks: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    if (line === '') continue;
    if (/^\s/.test(line) && blocks.length > 0) blocks[blocks.length - 1] += `\n${line}`;
    else blocks.push(line);
  }
  return blocks;
}

/** An error of the application's own files or options, not of a package's declarations (as skipLibCheck would). */
function isApplicationError(block: string): boolean {
  const match = /^(?:(.*)\(\d+,\d+\): )?error TS\d+:/.exec(block);
  return match !== null && (match[1] === undefined || !path.resolve(match[1]).includes(NODE_MODULES));
}

/**
 * Runs tsc on the check's tsconfig, written for this run under the project's node_modules/.cache (`folder` holds
 * the project's tsconfig, or the entry): tsc looks for `@types` from there up, so it finds the project's.
 */
async function check(tsc: string, folder: string, config: CheckConfig): Promise<TypeCheckResult> {
  // The nearest node_modules (where the project's packages are), else `folder`'s own, to be made.
  const packages = nearest(folder, 'node_modules') ?? path.join(folder, 'node_modules');
  const configFile = path.join(packages, '.cache', 'tessera', `tsconfig.type-check.${process.pid}.json`);
  fs.mkdirSync(path.dirname(configFile), { recursive: true });
  fs.writeFileSync(configFile, JSON.stringify(config, null, 2) + '\n');
  let output: string;
  try {
    output = await runCompiler(tsc, ['--pretty', 'false', '-p', configFile]);
  } finally {
    fs.rmSync(configFile, { force: true });
  }
  const errors = diagnosticBlocks(output).filter(isApplicationError);
  return { errorCount: errors.length, report: errors.map((block) => `${block}\n`).join('') };
}

/**
 * Type-checks `entryPath` (absolute) and its imports, and the project's declaration files (global augmentations
 * count, as they do for tsc); the project's other files only when the entry imports them, so a broken test file
 * elsewhere does not stop the build. Paths in the report are relative to process.cwd(). A project without
 * TypeScript throws at once, before the build loads anything; what tsc says comes with the promise.
 */
export function typeCheckEntry(entryPath: string): Promise<TypeCheckResult> {
  const tsc = projectCompiler(entryPath);
  const isJavaScript = JAVASCRIPT.test(entryPath);
  if (tsc === undefined) {
    // Without TypeScript there is no checkJs either: a JavaScript entry has nothing to check.
    if (isJavaScript) return Promise.resolve({ errorCount: 0, report: '' });
    throw new BuildError('tessera build type-checks with the project\'s TypeScript, and none is installed: npm install --save-dev typescript, or build with --no-typecheck');
  }
  return checkWith(tsc, entryPath, isJavaScript);
}

/** The check itself, with the project's tsc: its settings first, then the entry and declarations. */
async function checkWith(tsc: string, entryPath: string, isJavaScript: boolean): Promise<TypeCheckResult> {
  const configPath = nearest(path.dirname(entryPath), 'tsconfig.json');
  const settings = configPath === undefined ? { declarations: [], checkJs: false } : await projectSettings(tsc, configPath);
  // tsc checks JavaScript only when asked to (checkJs); otherwise a JavaScript entry has nothing to check.
  if (isJavaScript && !settings.checkJs) return { errorCount: 0, report: '' };
  const files = [entryPath, ...settings.declarations];
  const config: CheckConfig =
    configPath === undefined
      ? { compilerOptions: { ...DEFAULT_COMPILER_OPTIONS, ...CHECK_OPTIONS }, files, include: [] }
      : { extends: configPath, compilerOptions: CHECK_OPTIONS, files, include: [] };
  return check(tsc, path.dirname(configPath ?? entryPath), config);
}
