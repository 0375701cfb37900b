// Loads an ES module with Node's own loader from inside jest. Jest's module sandbox cannot import() an
// ES module without --experimental-vm-modules, and marked and @mdx-js/mdx ship only ES modules; Node's
// CommonJS loader (reached through Module._load, which jest leaves in place) requires them natively
// on Node ≥ 20.19. Production code uses a real import() instead (runtime/docs/content-libraries.ts).
import Module from 'node:module';
import { fileURLToPath } from 'node:url';

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;

export async function nativeImport(url: string): Promise<unknown> {
  return (Module as unknown as { _load: Load })._load(fileURLToPath(url), null, false);
}
