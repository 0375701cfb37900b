// server.js: the bundle's entry (CONTRACT §7). It hands the bundled application (entry.mjs or entry.cjs, beside
// it), the build's fallback port and compilation.js to tessera's startBundle: no tsx, no source file.
import { code, comment, literal, type Code } from '../code/code';
import { formatSource } from '../code/format';
import { fillTemplate } from '../code/template';
import { COMPILATION_FILE } from '../bundle/layout';

export interface ServerEntrySource {
  /** The bundled application entry, a file of the bundle (`entry.mjs`). */
  readonly application: string;
  /** The `--port` given to `tessera build`. */
  readonly fallbackPort: number;
  /** The bundle's copy of the `documentation` folder, relative to the bundle. */
  readonly documentation: { readonly dir: string; readonly components?: string } | null;
}

function emitDocumentation(documentation: NonNullable<ServerEntrySource['documentation']>): Code {
  const components = documentation.components === undefined ? code`` : code`, components: path.join(__dirname, ${literal(documentation.components)})`;
  return code`${comment("The application's documentation folder, copied into the bundle.")}
const documentation = { dir: path.join(__dirname, ${literal(documentation.dir)})${components} };`;
}

export function emitServerEntry(source: ServerEntrySource, header: string): string {
  const start = code`${comment('The application: it registers the services and default-exports the server options.')}
const entry = path.join(__dirname, ${literal(source.application)});
${comment('spec §8.1: PORT, else the --port given to tessera build.')}
const fallbackPort = ${literal(source.fallbackPort)};

${source.documentation === null ? code`` : emitDocumentation(source.documentation)}
startBundle({ entry, fallbackPort, compilation: require(${literal(`./${COMPILATION_FILE}`)})${source.documentation === null ? code`` : code`, documentation`} });`;
  const text = fillTemplate('server.js.tpl', { header: comment(header), start });
  return formatSource(text.toString());
}
