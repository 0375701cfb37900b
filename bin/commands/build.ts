// `tessera build <entry> [--out dist] [--port 4000]` (CONTRACT §7): loads the entry, collects the
// routes exactly as createServer mounts them and writes the bundle; `node <out>/server.js` starts it.
import path from 'node:path';
import type { CommandModule } from 'yargs';
import type { BundleReport } from '../../generator';
import { exitWithError } from '../exit-with-error';
import { loadEntry } from '../load-entry';
import { DEFAULT_PORT, resolvePort } from '../port';
import { lastFlag, withEntryAndPort } from './shared-options';

export interface BuildArgs {
  entry: string;
  out?: string | string[];
  port?: string | string[];
}

export const buildCommand: CommandModule<object, BuildArgs> = {
  command: 'build <entry>',
  describe: 'Write a bundle: server entry, compiled handlers, statement shapes, OpenAPI, contract and typed client',
  builder: (yargs) =>
    withEntryAndPort(yargs, `Port the bundle listens on when PORT is not set, 1 to 65535 (default: ${DEFAULT_PORT})`).option('out', {
      type: 'string',
      describe: 'Folder to write the bundle into (default: dist)',
    }),
  handler: (argv) => {
    try {
      const out = lastFlag(argv.out) ?? 'dist';
      const report = buildEntry({ ...argv, out });
      const removed = report.removed.length > 0 ? `, ${report.removed.length} stale removed` : '';
      process.stdout.write(`tessera build: ${out}: ${report.files} files (${report.written.length} written${removed})\n`);
    } catch (error) {
      exitWithError(error);
    }
  },
};

/** Validates the port, loads the entry and writes its bundle into `out` (relative to process.cwd()). */
export function buildEntry(args: BuildArgs & { out: string }): BundleReport {
  // spec §8.1: the bundle's fallback port; PORT is read when the bundle runs, never at build time.
  const port = resolvePort({ flag: lastFlag(args.port), fallback: DEFAULT_PORT });
  const { options } = loadEntry(args.entry);

  // Loaded after the entry, as in load-entry.ts; the generator (and ts-morph) only here, never by a bundle.
  const { listServices } = require('../../runtime') as typeof import('../../runtime');
  const { collectRoutes } = require('../../runtime/server/action-routes') as typeof import('../../runtime/server/action-routes');
  const { resolvePrefix } = require('../../runtime/server/create-server') as typeof import('../../runtime/server/create-server');
  const { buildBundle } = require('../../generator') as typeof import('../../generator');

  const services = (options.services as import('../../runtime').Service[] | undefined) ?? listServices();
  const prefix = resolvePrefix(options.prefix as string | undefined);
  const routes = collectRoutes(services, prefix);
  const outDir = path.resolve(process.cwd(), args.out);
  // CONTRACT §7: the bundle names its entry relative to itself, with `/`, never as an absolute path.
  const entry = path.relative(outDir, path.resolve(process.cwd(), args.entry)).split(path.sep).join('/');
  return buildBundle({ services, routes, prefix, options, entry, port }, outDir);
}
