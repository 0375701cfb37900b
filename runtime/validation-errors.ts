// The translation of ajv's errors into CONTRACT §4 details (`{ path, message }`, path a JSON Pointer into the input),
// with the message templates a schema may carry for its own errors (`x-messages`).
import type { ErrorObject } from 'ajv/dist/2020';
import { TesseraError, type ErrorDetail } from './errors';

/**
 * Schema annotation: message templates per ajv keyword, for errors raised by this very schema object.
 * `{key}` is the offending property name, `{value}` the offending value, `{path}` where it is (`where.title`).
 */
export const MESSAGES_KEYWORD = 'x-messages';

function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `/where/title/in` → `where.title.in`; the root is `input`. */
function describePath(pointer: string): string {
  if (pointer === '') return 'input';
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function fillTemplate(template: string, error: ErrorObject): string {
  const key = String((error.params as { additionalProperty?: string }).additionalProperty ?? '');
  return template
    .replace(/\{key\}/g, key)
    .replace(/\{path\}/g, () => describePath(error.instancePath))
    .replace(/\{value\}/g, () => String(error.data));
}

/** `an array`, `a string`: ajv's type names with their article. */
function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** ajv's own wording for the keywords whose message can name what is allowed. */
function defaultMessage(error: ErrorObject, path: string): string {
  const where = describePath(path);
  if (error.keyword === 'enum') return `${where} must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((value) => String(value)).join(', ')}`;
  if (error.keyword === 'type') return `${where} must be ${String((error.params as { type: string | string[] }).type).split(',').map(withArticle).join(' or ')}`;
  return `${where} ${error.message ?? 'is invalid'}`;
}

/**
 * An `x-messages` entry: the message's template, or, for a rule over several fields (cursor beside offset), the
 * template with the field it is about (`at`, a pointer below the schema's own), which ajv cannot know.
 */
type MessageTemplate = string | { at: string; message: string };

function templateOf(error: ErrorObject): MessageTemplate | undefined {
  const templates = (error.parentSchema as Record<string, unknown> | undefined)?.[MESSAGES_KEYWORD] as Record<string, MessageTemplate> | undefined;
  return templates?.[error.keyword];
}

function toDetail(error: ErrorObject): ErrorDetail {
  let path = error.instancePath;
  if (error.keyword === 'additionalProperties') path += '/' + escapePointerToken((error.params as { additionalProperty: string }).additionalProperty);
  if (error.keyword === 'required') path += '/' + escapePointerToken((error.params as { missingProperty: string }).missingProperty);

  const template = templateOf(error);
  if (typeof template === 'object') return { path: path + template.at, message: fillTemplate(template.message, error) };
  if (template !== undefined) return { path, message: fillTemplate(template, error) };
  if (error.keyword === 'additionalProperties') return { path, message: `${describePath(path)} is not allowed` };
  if (error.keyword === 'required') return { path, message: `${describePath(path)} is required` };
  return { path, message: defaultMessage(error, path) };
}

/**
 * The problem ajv found. It stops at the first failing keyword, but an `anyOf` that fails reports each of its
 * branches' errors before its own: one problem still, told by the anyOf's own message where its schema gives one,
 * else by its first branch's.
 */
function firstProblem(errors: ErrorObject[]): ErrorObject[] {
  const last = errors[errors.length - 1];
  if (last === undefined || last.keyword !== 'anyOf') return errors;
  return templateOf(last) !== undefined ? [last] : errors.slice(0, 1);
}

/** The VALIDATION_ERROR for a failed validator, details sorted by path. */
export function validationError(errors: ErrorObject[] | null | undefined): TesseraError {
  const details = firstProblem(errors ?? []).map(toDetail).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const message = details.length > 0 ? details[0].message : 'input is invalid';
  return new TesseraError('VALIDATION_ERROR', message, details);
}
