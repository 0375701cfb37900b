// One plan per crud action (spec §8, issue 11): which fixed shape a call of the action runs when it asks for nothing
// but the default (no select, filter, order or scope), and whether that statement is prepared while the server is
// built. The generic pipeline's start-time preparation, the compiler's choice of fast path and the bundle's
// statement files all read this table, so the modes run the same statements by construction.
import type { CrudActionName } from '../actions';

/** The shapes whose SQL is known at build time (issue 11), written into the bundle's statement files. */
export type FixedShapeName = 'getById' | 'listPage' | 'countAll' | 'anyRow' | 'deleteById';

/** The writes whose statement depends on the columns a request writes: made on first use of each set (RETURNING databases). */
export type FixedWriteName = 'insertRow' | 'updateRow';

export interface ActionPlan {
  /** The statement a compiled handler runs without Drizzle for the action's default call, or null (always the runtime path). */
  readonly fixedShape: FixedShapeName | FixedWriteName | null;
  /** spec §8 rule 4: the action's default statement is prepared while the server is built. */
  readonly isPreparedAtStart: boolean;
}

export const ACTION_PLANS: Readonly<Record<CrudActionName, ActionPlan>> = Object.freeze({
  list: { fixedShape: 'listPage', isPreparedAtStart: true },
  get: { fixedShape: 'getById', isPreparedAtStart: true },
  findOne: { fixedShape: null, isPreparedAtStart: false },
  create: { fixedShape: 'insertRow', isPreparedAtStart: false },
  update: { fixedShape: 'updateRow', isPreparedAtStart: false },
  delete: { fixedShape: 'deleteById', isPreparedAtStart: false },
  count: { fixedShape: 'countAll', isPreparedAtStart: false },
  exists: { fixedShape: 'anyRow', isPreparedAtStart: false },
  // CONTRACT §10: each one transaction of several statements, always the runtime path.
  createMany: { fixedShape: null, isPreparedAtStart: false },
  updateMany: { fixedShape: null, isPreparedAtStart: false },
  deleteMany: { fixedShape: null, isPreparedAtStart: false },
  upsert: { fixedShape: null, isPreparedAtStart: false },
});

/** The actions spec §8 rule 4 prepares at start: get and list. */
export type PreparedAction = 'get' | 'list';

export function isPreparedAtStart(action: CrudActionName): action is PreparedAction {
  return ACTION_PLANS[action].isPreparedAtStart;
}
