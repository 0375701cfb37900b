// The caller context's type (issue 31): what `ctx` is in authorize, scope, scrub, hooks, service actions and the
// `context` server option. Declared once for the application by augmenting `Register`, or per service with
// `defineService<Ctx>()(…)`; without either it is any object, as before.

/**
 * Declare your application's context here, once, and every `ctx` is typed by it:
 *
 * @example
 * declare module 'tessera-api' {
 *   interface Register {
 *     context: { user?: { id: string; role: 'member' | 'admin' }; requestId?: string };
 *   }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Register {}

/** The caller context: `Register['context']` when the application declared one, else any object. */
export type Context = Register extends { context: infer TContext } ? TContext : Record<string, any>;

/** The context as the runtime handles it, whatever the application declared: the object the factory answered. */
export type AnyContext = Record<string, any>;
