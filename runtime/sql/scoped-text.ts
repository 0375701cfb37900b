// The SQL text of a compiled handler's statement, built once when the handler is made (issue 27), with a place for
// the call's scope condition. A call without one runs the text as it is; a call with one gets the text around that
// place, the condition's own SQL in it and the condition's values bound as parameters, never written into the text.
// Only the condition is rendered per call: it is the caller's (the access scope's answer), so it cannot be known
// before. Such statements are prepared for the call only (Dialect.runOnce): spec §8 rules 2 and 3.
import { sql, type SQL } from 'drizzle-orm';
import type { AnyDatabase, PreparableQuery, TextStatement } from '../dialects/dialect';
import { parameterFiller, parameterSlot, type ParameterFiller } from '../dialects/prepared-select';
import { primaryOf } from '../dialects/read-replicas';
import { scopePlaceholderName, scopeShapeOf, type ScopeShape } from './scope-shapes';

/** The name of the placeholder that marks the scope's place; no column or value is named so. */
const SCOPE_NAME = '\u0000scope';

/** Where a statement's where clause takes the call's scope condition (build's argument when the text is made). */
export const SCOPE_SLOT: SQL = sql`${sql.placeholder(SCOPE_NAME)}`;

/** The parts of Drizzle's dialect (drizzle-orm 0.45) that write SQL text: the same for the three databases. */
interface SqlWriter {
  sqlToQuery(query: SQL): { sql: string; params: unknown[] };
  escapeParam(index: number, value?: unknown): string;
  readonly casing: unknown;
  escapeName(name: string): string;
  escapeString(text: string): string;
  readonly prepareTyping?: unknown;
}

/** A query that can hand over its SQL (Drizzle's select, insert, update and delete builders). */
export type BuiltQuery = PreparableQuery & { getSQL(): SQL };

/** Marks each parameter by its index, so the text can be cut around the scope's place. */
const MARK = /\u0000(\d+)\u0000/;

/** The statement's text with a scope shape's condition in its places, written once per shape (scope-shapes.ts), and the condition's parameters from the scope's values. */
interface ShapeText {
  readonly text: string;
  readonly fill: (scopeValues: readonly unknown[]) => unknown[];
}

/** Shapes whose text a statement remembers; past this, a scope's condition is rendered per call. */
const MAX_SHAPE_TEXTS = 64;

export class ScopedText {
  private constructor(
    /** The statement without a scope condition. */
    readonly text: string,
    private readonly fill: ParameterFiller,
    /** The statement with a scope condition: the texts around its places (a write's WHERE and RETURNING may both have one). */
    private readonly parts: readonly string[],
    private readonly fillScoped: ParameterFiller,
    /** Where the condition's values go among the statement's, per place ('?' databases); empty for '$n' ones (last, once). */
    private readonly scopeAts: readonly number[],
    /** The number of the condition's first placeholder ('$n' databases): every place uses the same numbers. */
    private readonly firstScopeParam: number,
    private readonly writer: SqlWriter,
  ) {}

  /** `build(undefined)` is the statement without a scope, `build(SCOPE_SLOT)` the one with it: both written now. */
  static of(db: AnyDatabase, build: (scope: SQL | undefined) => BuiltQuery): ScopedText {
    const writer = primaryOf(db).dialect as SqlWriter;
    const plain = build(undefined).toSQL();
    const marking = Object.create(writer, { escapeParam: { value: (index: number) => `\u0000${index}\u0000` } }) as SqlWriter;
    const marked = marking.sqlToQuery(build(SCOPE_SLOT).getSQL());
    const pieces = marked.sql.split(MARK);
    // '?' databases bind in order of appearance; '$n' ones by number, so the condition's values may come last.
    const isPositional = writer.escapeParam(0, undefined) === writer.escapeParam(1, undefined);
    const params: unknown[] = [];
    const parts = [''];
    const scopeAts: number[] = [];
    for (let index = 0; index < pieces.length; index++) {
      let text = pieces[index];
      if (index % 2 === 1) {
        const param = marked.params[Number(text)];
        const slot = parameterSlot(param);
        if ('name' in slot && slot.name === SCOPE_NAME) {
          scopeAts.push(params.length);
          parts.push('');
          continue;
        }
        text = writer.escapeParam(params.length, undefined);
        params.push(param);
      }
      parts[parts.length - 1] += text;
    }
    if (scopeAts.length === 0) throw new Error('a compiled statement has no place for the scope condition');
    return new ScopedText(plain.sql, parameterFiller(plain.params), parts, parameterFiller(params), isPositional ? scopeAts : [], params.length, writer);
  }

  /** The texts of this statement per scope shape (scope-shapes.ts). */
  private readonly shapeTexts = new Map<string, ShapeText>();

  /** The statement of a call: its named values bound, and the scope condition (if any) in each of its places. */
  statement(named: Record<string, unknown>, scope: SQL | undefined): TextStatement {
    if (scope === undefined) return { text: this.text, values: this.fill(named) };
    const shape = scopeShapeOf(scope);
    const known = shape === undefined ? undefined : this.shapeText(shape);
    const rendered = known === undefined ? this.render(scope) : null;
    const conditionValues = rendered !== null ? rendered.params : known!.fill(shape!.values);
    const values = this.fillScoped(named);
    if (this.scopeAts.length === 0) values.push(...conditionValues);
    // From the last place back, so each place's index still counts only the statement's own values before it.
    else for (let place = this.scopeAts.length - 1; place >= 0; place--) values.splice(this.scopeAts[place], 0, ...conditionValues);
    // In parentheses: whatever the condition's SQL is, it narrows the statement's rows and never widens them.
    return { text: rendered !== null ? this.parts.join(`(${rendered.sql})`) : known!.text, values };
  }

  /** The condition's SQL as this statement numbers its parameters, with its values in place (or placeholders, for a shape's template). */
  private render(condition: SQL): { sql: string; params: unknown[] } {
    const writer = this.writer;
    const query = condition.toQuery({
      casing: writer.casing,
      escapeName: writer.escapeName,
      escapeParam: writer.escapeParam,
      escapeString: writer.escapeString,
      prepareTyping: writer.prepareTyping,
      paramStartIndex: { value: this.firstScopeParam },
    } as never);
    return query;
  }

  /** The text for a scope shape, written on its first call; undefined once the statement has seen too many shapes. */
  private shapeText(shape: ScopeShape): ShapeText | undefined {
    let known = this.shapeTexts.get(shape.key);
    if (known !== undefined || this.shapeTexts.size >= MAX_SHAPE_TEXTS) return known;
    const template = this.render(shape.template);
    const scopeIndex = new Map<string, number>();
    for (let index = 0; index < shape.values.length; index++) scopeIndex.set(scopePlaceholderName(index), index);
    // Each parameter: one of the scope's values (through its column's encoder, as inline it would be), else a value of the template itself.
    const slots = template.params.map((param) => {
      const slot = parameterSlot(param);
      return 'value' in slot ? { index: -1, encoder: null, value: slot.value } : { index: scopeIndex.get(slot.name)!, encoder: slot.encoder, value: undefined };
    });
    const fill = (scopeValues: readonly unknown[]): unknown[] =>
      slots.map(({ index, encoder, value }) => (index === -1 ? value : encoder === null ? scopeValues[index] : encoder.mapToDriverValue(scopeValues[index])));
    known = { text: this.parts.join(`(${template.sql})`), fill };
    this.shapeTexts.set(shape.key, known);
    return known;
  }
}
