// Module hooks (module.register) for `tessera start|dev|build`: a URL carrying `?tessera-format=module` is
// loaded as an ES module whatever its package's `type` says. The entry loader retries an entry with it when a
// TypeScript entry in a CommonJS package uses top-level await, as Node itself does for ambiguous .js files.
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (!resolved.url.startsWith('file:') || !new URL(resolved.url).searchParams.has('tessera-format')) return resolved;
  return { ...resolved, format: 'module' };
}
