// `tessera build` type-checks the application before it writes anything: the entry and every file it imports
// (packages excluded), with the project's tsconfig.json (else strict defaults), through ts-morph, reported as
// tsc reports them. `tessera start` does not: it stays fast, like tsx.
import path from 'node:path';
import { Project, ts, type Diagnostic } from 'ts-morph';

export interface TypeCheckResult {
  /** Errors in the application's files (or its tsconfig); warnings and suggestions do not count. */
  readonly errorCount: number;
  /** The errors as tsc prints them: `app.ts(3,7): error TS2322: …`, one or more lines each. */
  readonly report: string;
}

/** What a project without a tsconfig.json is checked with: what `tessera init` writes, in short. */
const DEFAULT_OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  esModuleInterop: true,
  skipLibCheck: true,
  resolveJsonModule: true,
  noEmit: true,
};

/**
 * ts-morph brings its own TypeScript, which may be newer than the project's: options it deprecates (`baseUrl`,
 * `moduleResolution: node10` in TypeScript 6) are not type errors in the project's code, so they are not reported.
 */
const CHECK_OVERRIDES: ts.CompilerOptions = { noEmit: true, ignoreDeprecations: '6.0' };

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

function createProject(entryPath: string): Project {
  const configPath = ts.findConfigFile(path.dirname(entryPath), ts.sys.fileExists);
  if (configPath === undefined) return new Project({ compilerOptions: DEFAULT_OPTIONS });
  const project = new Project({ tsConfigFilePath: configPath, skipAddingFilesFromTsConfig: true, compilerOptions: CHECK_OVERRIDES });
  // The project's own declaration files (global augmentations) count, as they do for tsc; its other files only
  // when the entry imports them, so a broken test file elsewhere does not stop the build.
  const declarations = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, path.dirname(configPath)).fileNames;
  project.addSourceFilesAtPaths(declarations.filter((file) => file.endsWith('.d.ts')));
  return project;
}

function isApplicationError(diagnostic: Diagnostic): boolean {
  if (diagnostic.getCategory() !== ts.DiagnosticCategory.Error) return false;
  const file = diagnostic.getSourceFile()?.getFilePath();
  return file === undefined || !path.normalize(file).includes(NODE_MODULES);
}

const JAVASCRIPT = /\.(js|mjs|cjs|jsx)$/;

/** Type-checks `entryPath` (absolute) and its imports; paths in the report are relative to process.cwd(). */
export function typeCheckEntry(entryPath: string): TypeCheckResult {
  const project = createProject(entryPath);
  // tsc checks JavaScript only when asked to (checkJs); otherwise a JavaScript entry has nothing to check.
  if (JAVASCRIPT.test(entryPath) && project.getCompilerOptions().checkJs !== true) return { errorCount: 0, report: '' };
  project.addSourceFileAtPath(entryPath);
  project.resolveSourceFileDependencies();
  const errors = project.getPreEmitDiagnostics().filter(isApplicationError);
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (file) => file,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  };
  return { errorCount: errors.length, report: ts.formatDiagnostics(errors.map((error) => error.compilerObject), host) };
}
