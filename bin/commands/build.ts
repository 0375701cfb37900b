// `tessera build <entry> [--out dist] [--port 4000]` (CONTRACT §7): type-checks the entry, loads it, collects the
// routes exactly as createServer mounts them and writes a self-contained bundle; `node <out>/server.js` starts it.
import fs from 'node:fs';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import type { BundleReport } from '../../generator';
import type { DocumentationOption } from '../../runtime/docs/documentation-folder';
import { exitWithError } from '../exit-with-error';
import { EntryError, loadEntry } from '../load-entry';
import { DEFAULT_PORT, resolvePort } from '../port';
import { lastFlag, withEntryAndPort } from './shared-options';

export interface BuildArgs {
  entry: string;
  out?: string | string[];
  port?: string | string[];
  /** `--no-typecheck` skips the type check. */
  typecheck?: boolean;
}

export const buildCommand: CommandModule<object, BuildArgs> = {
  command: 'build <entry>',
  describe: 'Type-check the entry, then write a bundle: server, application, compiled handlers, statements, OpenAPI, contract and typed client',
  builder: (yargs) =>
    withEntryAndPort(yargs, `Port the bundle listens on when PORT is not set, 1 to 65535 (default: ${DEFAULT_PORT})`)
      .option('out', { type: 'string', describe: 'Folder to write the bundle into: new, empty, or an earlier bundle (default: dist)' })
      .option('typecheck', { type: 'boolean', describe: 'Type-check the entry and the files it imports first; --no-typecheck skips it (default: true)' }),
  handler: async (argv) => {
    try {
      const out = lastFlag(argv.out) ?? 'dist';
      const report = await buildEntry({ ...argv, out });
      const removed = report.removed.length > 0 ? `, ${report.removed.length} stale removed` : '';
      process.stdout.write(`tessera build: ${out}: ${report.files} files (${report.written.length} written${removed})\n`);
    } catch (error) {
      exitWithError(error);
    }
  },
};

/** Type-checks, loads the entry and writes its bundle into `out` (relative to process.cwd()). */
export async function buildEntry(args: BuildArgs & { out: string }): Promise<BundleReport> {
  // Loaded after the argument checks, as in load-entry.ts; the generator (esbuild, tsc) only here, never by a bundle.
  const { BuildError, buildBundle, bundleEntry, bundleHeader, documentationFiles, typeCheckEntry } = require('../../generator') as typeof import('../../generator');
  if (args.out.trim() === '') throw new BuildError('--out needs a folder: tessera build <entry> --out dist');
  // spec §8.1: the bundle's fallback port; PORT is read when the bundle runs, never at build time.
  const port = resolvePort({ flag: lastFlag(args.port), fallback: DEFAULT_PORT });
  const entryPath = path.resolve(process.cwd(), args.entry);
  if (!fs.existsSync(entryPath)) throw new EntryError(`entry not found: ${args.entry}`);

  // Before the entry runs: a build that would fail on types does not connect to a database first.
  if (args.typecheck !== false) {
    const { errorCount, report } = typeCheckEntry(entryPath);
    const errors = errorCount === 1 ? '1 type error' : `${errorCount} type errors`;
    if (errorCount > 0) throw new BuildError(`${errors} in ${args.entry} and the files it imports (--no-typecheck skips this check)`, { report });
  }
  const { format, options } = await loadEntry(args.entry);

  const { listServices } = require('../../runtime') as typeof import('../../runtime');
  const { collectRoutes } = require('../../runtime/server/action-routes') as typeof import('../../runtime/server/action-routes');
  const { resolvePrefix } = require('../../runtime/server/create-server') as typeof import('../../runtime/server/create-server');
  const services = (options.services as import('../../runtime').Service[] | undefined) ?? listServices();
  const prefix = resolvePrefix(options.prefix as string | undefined);
  const routes = collectRoutes(services, prefix);
  const outDir = path.resolve(process.cwd(), args.out);
  // CONTRACT §7: the bundle names its source relative to itself, with `/`, never as an absolute path.
  const entry = path.relative(outDir, entryPath).split(path.sep).join('/');
  const header = bundleHeader(entry);
  const application = bundleEntry({ entryPath, format, header });
  // load-entry made the option's paths absolute (they start at the entry's folder).
  const documentation = options.documentation === undefined ? null : documentationFiles(options.documentation as DocumentationOption, header);
  return buildBundle({ services, routes, prefix, options, entry, application, documentation, port }, outDir);
}
