// The HTTP status of an answer whose status depends on what the call did (CONTRACT §10: upsert answers 201 when it
// created the row, 200 when it updated it). The in-process caller gets the row alone; both handler modes read
// the status here, so they answer the same.
const statuses = new WeakMap<object, number>();

/** Marks an action's output with the status its HTTP answer carries instead of the route's. */
export function withStatus<T extends object>(output: T, status: number): T {
  statuses.set(output, status);
  return output;
}

/** The status of an answer: the one its action set, else the route's. */
export function statusOf(output: unknown, routeStatus: number): number {
  return typeof output === 'object' && output !== null ? (statuses.get(output) ?? routeStatus) : routeStatus;
}
