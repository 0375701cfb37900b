// Which of the application's files the dev child has loaded: CommonJS modules from require.cache, ES modules from
// a module hook (loaded-modules-hooks.mjs), which is the only place Node says what its ES module loader loaded.
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/** ES module files reported by the hook; null until recordEsModules() runs. */
let esModules: Set<string> | null = null;
const listeners: (() => void)[] = [];

/**
 * Registers the hook that reports every module loaded by Node's ES module loader from now on. Call it after tsx's
 * hooks are registered (registerTypeScriptHooks) and before the entry loads; later calls do nothing.
 */
export function recordEsModules(): void {
  if (esModules !== null) return;
  const recorded = new Set<string>();
  esModules = recorded;
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (url: string) => {
    const file = fileURLToPath(url.replace(/[?#].*$/, ''));
    if (recorded.has(file) || !isSourceFile(file)) return;
    recorded.add(file);
    for (const listener of listeners) listener();
  });
  port1.unref(); // the channel must not keep a child alive that has nothing else to do
  register(pathToFileURL(require.resolve('./loaded-modules-hooks.mjs')), { data: { port: port2 }, transferList: [port2] });
}

/** Calls `listener` whenever the hook reports an application file not seen before (a module imported later on). */
export function onNewEsModule(listener: () => void): void {
  listeners.push(listener);
}

/** The application's own files loaded so far, sorted: the entry and everything it imported outside node_modules. */
export function loadedSourceFiles(): string[] {
  const files = new Set(Object.keys(require.cache).filter(isSourceFile));
  for (const file of esModules ?? []) files.add(file);
  return [...files].sort();
}

function isSourceFile(file: string): boolean {
  return path.isAbsolute(file) && !file.includes(NODE_MODULES) && SOURCE_EXTENSIONS.has(path.extname(file));
}
