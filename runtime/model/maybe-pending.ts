// An answer that comes now or later: SQLite's driver and synchronous application functions answer at once, the other
// drivers and async functions with a promise. The hot path goes on synchronously when it can: each await, even of a
// plain value, costs a turn of the microtask queue.

/** Whether a value is a promise (or any thenable) to wait for. */
export function isPending<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** `next` of a value that may be pending: at once when it is not, once it settles otherwise. */
export function afterValue<T, U>(value: T | PromiseLike<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return isPending(value) ? Promise.resolve(value).then(next) : next(value);
}
