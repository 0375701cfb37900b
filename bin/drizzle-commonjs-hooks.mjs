// Module hooks (module.register) for `tessera start|dev|build`: an ES module's import of drizzle-orm (or a subpath)
// resolves to Drizzle's CommonJS build, loaded by Node's CommonJS loader. Tessera's runtime is CommonJS and
// requires that build; without this an ES module application loads Drizzle's ES module build beside it, a
// second copy of every class and about 190 more modules. A bundle's entry.mjs gets the same from the build
// (generator/bundle/entry-bundle.ts). Drizzle's API is the same in both builds.
const DRIZZLE = /^drizzle-orm(\/.*)?$/;

export async function resolve(specifier, context, nextResolve) {
  if (!DRIZZLE.test(specifier)) return nextResolve(specifier, context);
  // The package's `require` export, with whatever other conditions Node runs with (--conditions).
  const conditions = context.conditions.map((condition) => (condition === 'import' ? 'require' : condition));
  let resolved;
  try {
    resolved = await nextResolve(specifier, { ...context, conditions });
  } catch {
    // A subpath with no CommonJS build (none in Drizzle 0.45) is imported as it is.
    return nextResolve(specifier, context);
  }
  // No source from the load hooks: Node then loads it with require(), into the cache Tessera's requires use.
  return { ...resolved, format: 'commonjs' };
}
