// Drizzle's classes compared by kind, not by identity. Tessera's runtime is CommonJS and requires Drizzle's CommonJS
// build; an ES module application run by plain `node` builds its tables with Drizzle's ES module build, another
// copy of every class (the CLI and a bundle give such an application the CommonJS build, through
// bin/drizzle-commonjs-hooks.mjs and generator/bundle/entry-bundle.ts). Drizzle's own `is()` compares the kinds
// (`entityKind`) for the same reason.
import { entityKind } from 'drizzle-orm';

/**
 * The prototype of the Drizzle class named `kind` (`Column`, `MySqlDateTime`) that `value` descends from, in the
 * copy of Drizzle that made `value`; null when it does not descend from one. A class's kind is its own static
 * `entityKind` (a subclass without one reads its parent's, so only an own one names the class).
 */
export function drizzlePrototype(value: object, kind: string): Record<PropertyKey, unknown> | null {
  for (let prototype = Object.getPrototypeOf(value) as object | null; prototype !== null; prototype = Object.getPrototypeOf(prototype) as object | null) {
    const constructor = (prototype as { constructor?: unknown }).constructor;
    if (typeof constructor === 'function' && Object.prototype.hasOwnProperty.call(constructor, entityKind) && (constructor as unknown as Record<symbol, unknown>)[entityKind] === kind) {
      return prototype as Record<PropertyKey, unknown>;
    }
  }
  return null;
}
