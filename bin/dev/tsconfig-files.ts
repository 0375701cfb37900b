// The tsconfig files a dev child's tsx reads when it registers (before it loads the entry, so a standby child has
// read them ahead of an edit): `tessera dev` watches them, and a change restarts with a child that reads them anew.
import fs from 'node:fs';
import path from 'node:path';

/** The part of TypeScript's API used here (typescript ≤ 6; its native compiler has no such API). */
interface TypeScriptConfigApi {
  sys: { useCaseSensitiveFileNames: boolean; fileExists(file: string): boolean; readFile(file: string): string | undefined };
  getParsedCommandLineOfConfigFile(file: string, options: undefined, host: object, extendedConfigCache: Map<string, unknown>): unknown;
}

/** What tsx reads (tsx 4, `TSX_TSCONFIG_PATH`, else get-tsconfig's search): that file, or the nearest tsconfig.json up from `cwd`. */
function tsxTsconfig(cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  if (env.TSX_TSCONFIG_PATH !== undefined && env.TSX_TSCONFIG_PATH !== '') return path.resolve(cwd, env.TSX_TSCONFIG_PATH);
  for (let folder = cwd; ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, 'tsconfig.json');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(folder) === folder) return undefined;
  }
}

/** The application's TypeScript, as its tsconfig's folder finds it, when it has the JavaScript API; null otherwise. */
function typeScriptApi(folder: string): TypeScriptConfigApi | null {
  try {
    const ts = require(require.resolve('typescript', { paths: [folder] })) as Partial<TypeScriptConfigApi>;
    return typeof ts.getParsedCommandLineOfConfigFile === 'function' && ts.sys !== undefined ? (ts as TypeScriptConfigApi) : null;
  } catch {
    return null;
  }
}

/**
 * The configs `tsconfig` extends, followed by TypeScript itself (relative paths, packages, arrays of them); none
 * without TypeScript's API or when the file does not parse (tsx then reads what it can, and so does the watch).
 */
function extendedConfigs(tsconfig: string): string[] {
  const ts = typeScriptApi(path.dirname(tsconfig));
  if (ts === null) return [];
  // TypeScript records every config it extends in this cache; listing the project's files is not needed.
  const extended = new Map<string, unknown>();
  const host = {
    useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
    fileExists: (file: string) => ts.sys.fileExists(file),
    readFile: (file: string) => ts.sys.readFile(file),
    readDirectory: () => [],
    getCurrentDirectory: () => path.dirname(tsconfig),
    onUnRecoverableConfigFileDiagnostic: () => undefined,
  };
  try {
    ts.getParsedCommandLineOfConfigFile(tsconfig, undefined, host, extended);
  } catch {
    return [];
  }
  return [...extended.keys()].map((file) => path.resolve(file));
}

/** Only a tsconfig with an `extends` key needs TypeScript (loading it costs the supervisor about half a second). */
function hasExtends(tsconfig: string): boolean {
  try {
    return /"extends"\s*:/.test(fs.readFileSync(tsconfig, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Absolute paths of the tsconfig a dev child's tsx reads and the configs it extends; without one, the
 * tsconfig.json that creating in `cwd` would give tsx.
 */
export function tsconfigFiles(cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): ReadonlySet<string> {
  const tsconfig = tsxTsconfig(cwd, env);
  if (tsconfig === undefined) return new Set([path.join(cwd, 'tsconfig.json')]);
  return new Set([tsconfig, ...(hasExtends(tsconfig) ? extendedConfigs(tsconfig) : [])]);
}
