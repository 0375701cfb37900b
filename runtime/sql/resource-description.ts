// What the compiler writes of a crud resource (issue 11, spec §8), described once and frozen: its plan, whether its
// fixed shapes may be prepared and why not, their SQL, and which readable columns Drizzle decodes. The generator
// reads this description instead of reaching into sql/; the description is made the first time it is asked for.
import { applicationDefaultColumns } from '../model/application-defaults';
import type { CrudRuntime } from '../model/crud-runtime';
import { hasDecoder } from './fixed-execution';
import { fixedStatementShapes, type FixedStatementShape } from './fixed-statements';
import { canPrepareFixedStatements, planOf, type ResourcePlan } from './resource-plan';

export type { FixedShapeName, FixedWriteName } from './action-plans';
export type { FixedStatementShape } from './fixed-statements';

export interface ResourceDescription {
  /** `<service>.<resource>`. */
  readonly label: string;
  /** The resource's model and plan: policy, hooks, dialect, statement cache; what its compiled routes receive as `resource`. */
  readonly plan: ResourcePlan;
  /** spec §8 rules 2 and 4: whether its fixed shapes are prepared (no scope function, no application default). */
  readonly isPrepared: boolean;
  /** spec §8 rule 3: the columns an application function fills, as `id ($defaultFn)`, in declaration order. */
  readonly applicationDefaults: readonly string[];
  /** The SQL of each fixed shape (action-plans.ts), with the database's own placeholders; worked out on first read. */
  readonly shapes: readonly FixedStatementShape[];
  /** The readable fields whose driver values Drizzle maps (dates, numerics…): the row writer decodes those. */
  readonly decodedFields: ReadonlySet<string>;
}

const descriptions = new WeakMap<CrudRuntime, ResourceDescription>();

/** The description of a resource's model (or plan), made once. */
export function describeResource(rt: CrudRuntime): ResourceDescription {
  const plan = planOf(rt);
  let description = descriptions.get(plan);
  if (description === undefined) {
    description = Object.freeze({
      label: plan.label,
      plan,
      isPrepared: canPrepareFixedStatements(plan),
      applicationDefaults: Object.freeze(applicationDefaultColumns(plan.table)),
      get shapes() {
        return fixedStatementShapes(plan);
      },
      decodedFields: new Set(plan.readable.filter((field) => hasDecoder(field.column)).map((field) => field.key)),
    });
    descriptions.set(plan, description);
  }
  return description;
}
