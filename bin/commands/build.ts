// `tessera build <entry> [--out dist] [--port 4000]` (CONTRACT §7): type-checks the entry while it loads it, collects
// the routes exactly as createServer mounts them and writes a self-contained bundle; `node <out>/server.js` starts it.
import fs from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { BundleFile, BundleReport, TypeCheckResult } from '../../generator';
import type { DocumentationOption } from '../../runtime/docs/documentation-folder';
import type { ServerOptions } from '../../runtime/server/server-options';
import { exitWithError } from '../exit-with-error';
import { checkEntryFile, EntryError, loadEntry } from '../load-entry';
import { DEFAULT_PORT, resolvePort } from '../port';
import { commandWithEntry, flagValue, withPort } from './shared-options';

export interface BuildArgs {
  entry: string;
  out?: string;
  port?: string;
  /** `--no-typecheck` skips the type check. */
  typecheck?: boolean;
}

export function addBuildCommand(program: Command): void {
  const command = commandWithEntry(program, 'build', 'Type-check the entry, then write a bundle: server, application, compiled handlers, statements, OpenAPI, contract and typed client');
  withPort(command, `Port the bundle listens on when PORT is not set, 1 to 65535 (default: ${DEFAULT_PORT})`)
    .option('--out [folder]', 'Folder to write the bundle into: new, empty, or an earlier bundle (default: dist)')
    .option('--typecheck', 'Type-check the entry and the files it imports first; --no-typecheck skips it (default: true)')
    .addOption(new Option('--no-typecheck').hideHelp())
    .action(async (entry: string, flags: { out?: string | boolean; port?: string | boolean; typecheck?: boolean }) => {
      try {
        const out = flagValue(flags.out) ?? 'dist';
        const report = await buildEntry({ entry, out, port: flagValue(flags.port), typecheck: flags.typecheck });
        const removed = report.removed.length > 0 ? `, ${report.removed.length} stale removed` : '';
        process.stdout.write(`tessera build: ${out}: ${report.files} files (${report.written.length} written${removed})\n`);
      } catch (error) {
        exitWithError(error);
      }
    });
}

type Generator = typeof import('../../generator');
type Settled<T> = { readonly result: T } | { readonly error: unknown };

/**
 * Type-checks, loads the entry and writes its bundle into `out` (relative to process.cwd()). The project's tsc runs
 * in its own process while this one loads the entry and generates the bundle in memory (on two cores the build
 * takes about the longer of the two, not their sum); nothing is written unless the check passes, and a type error
 * is reported before whatever the entry's load threw, since it is likely the cause.
 */
export async function buildEntry(args: BuildArgs & { out: string }): Promise<BundleReport> {
  // Loaded after the argument checks, as in load-entry.ts; the generator (esbuild, tsc) only here, never by a bundle.
  const generator = require('../../generator') as Generator;
  if (args.out.trim() === '') throw new generator.BuildError('--out needs a folder: tessera build <entry> --out dist');
  // spec §8.1: the bundle's fallback port; PORT is read when the bundle runs, never at build time.
  const port = resolvePort({ flag: args.port, fallback: DEFAULT_PORT });
  const entryPath = path.resolve(process.cwd(), args.entry);
  checkEntryFile(args.entry, entryPath);
  const outDir = path.resolve(process.cwd(), args.out);
  // `--out app.ts` (the entry given twice, say) is a file: the bundle needs a folder.
  if (fs.existsSync(outDir) && !fs.statSync(outDir).isDirectory()) throw new generator.BuildError(`--out ${args.out} is a file; name a folder for the bundle: tessera build <entry> --out dist`);

  // Throws at once without TypeScript; settled at once, so a check that fails early is not an unhandled
  // rejection while the entry loads.
  const typeCheck = args.typecheck === false ? null : generator.typeCheckEntry(entryPath).then((result) => ({ result }), (error: unknown) => ({ error }));
  let files: BundleFile[];
  try {
    files = await generateFiles(generator, args.entry, entryPath, outDir, port);
  } catch (error) {
    // A file that does not parse is reported as the syntax error it is, with its file and line, not as tsc's count.
    if (error instanceof EntryError && error.isSyntaxError) {
      await typeCheck;
      throw error;
    }
    await passTypeCheck(generator, typeCheck, args.entry);
    throw error;
  }
  await passTypeCheck(generator, typeCheck, args.entry);
  return generator.writeBundle(outDir, files);
}

/** Throws the check's failure, or a BuildError with tsc's report when it found errors. */
async function passTypeCheck(generator: Generator, typeCheck: Promise<Settled<TypeCheckResult>> | null, entry: string): Promise<void> {
  if (typeCheck === null) return;
  const outcome = await typeCheck;
  if ('error' in outcome) throw outcome.error;
  const { errorCount, report } = outcome.result;
  const errors = errorCount === 1 ? '1 type error' : `${errorCount} type errors`;
  if (errorCount > 0) throw new generator.BuildError(`${errors} in ${entry} and the files it imports (--no-typecheck skips this check)`, { report });
}

/** Loads the entry, asks the runtime for its application model (what createServer mounts) and generates the bundle's files. */
async function generateFiles(generator: Generator, entryArgument: string, entryPath: string, outDir: string, port: number): Promise<BundleFile[]> {
  const { format, options } = await loadEntry(entryArgument);
  // The application exactly as createServer mounts it, described by the runtime once.
  const { describeApplication } = require('../../runtime/server/application-model') as typeof import('../../runtime/server/application-model');
  const model = describeApplication(options as ServerOptions);
  // CONTRACT §7: the bundle names its source relative to itself, with `/`, never as an absolute path.
  const entry = path.relative(outDir, entryPath).split(path.sep).join('/');
  const header = generator.bundleHeader(entry);
  const application = await generator.bundleEntry({ entryPath, format, header });
  // load-entry made the option's paths absolute (they start at the entry's folder).
  const documentation = options.documentation === undefined ? null : await generator.documentationFiles(options.documentation as DocumentationOption, header);
  return generator.generateBundle({ model, options, entry, application, documentation, port });
}
