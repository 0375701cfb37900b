// server.js: the bundle's entry (CONTRACT §7). It registers tsx, then hands the application entry
// (relative to the bundle), the build's fallback port and compilation.js to tessera's startBundle.
import { code, comment, literal } from '../code/code';
import { formatSource } from '../code/format';
import { fillTemplate } from '../code/template';
import { COMPILATION_FILE } from '../bundle/layout';

export interface ServerEntrySource {
  /** The application entry relative to the bundle folder, with `/` (`../src/app.ts`). */
  readonly entry: string;
  /** The `--port` given to `tessera build`. */
  readonly fallbackPort: number;
}

export function emitServerEntry(source: ServerEntrySource, header: string): string {
  const start = code`${comment('The application entry: it registers the services and default-exports the server options.')}
const entry = path.resolve(__dirname, ${literal(source.entry)});
${comment('spec §8.1: PORT, else the --port given to tessera build.')}
const fallbackPort = ${literal(source.fallbackPort)};

startBundle({ entry, fallbackPort, compilation: require(${literal(`./${COMPILATION_FILE}`)}) });`;
  const text = fillTemplate('server.js.tpl', { header: comment(header), start });
  return formatSource(text.toString());
}
