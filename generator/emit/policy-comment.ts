// The resource's configuration in the user's own terms, as comment lines at the top of each handler,
// so a reviewer sees what the validator and the access block enforce without opening the entry.
import type { CrudRuntime } from '../../runtime/model/crud-runtime';
import type { FieldModel } from '../../runtime/model/field-policy';
import { comment, joinCode, type Code } from '../code/code';

function describeField(field: FieldModel): string {
  const rules: string[] = [];
  if (field.read) rules.push(field.scrub === null ? 'read' : 'read (scrubbed)');
  if (field.create) rules.push('create');
  if (field.update) rules.push('update');
  if (field.filter.length > 0) rules.push(`filter ${field.filter.join(', ')}`);
  if (field.sort) rules.push('sort');
  return `fields.${field.key}: ${rules.length > 0 ? rules.join('; ') : 'listed, no access'}`;
}

function describeAccess(rt: CrudRuntime): string {
  if (rt.access.isPublic) return "access: 'public'";
  const parts = [rt.access.authorize === null ? 'no authorize (every call is FORBIDDEN)' : 'authorize', rt.access.scope === null ? 'no scope' : 'scope'];
  return `access: ${parts.join(', ')}`;
}

export function emitPolicyComment(rt: CrudRuntime): Code {
  const lines = [`${rt.label} policy (columns not listed are hidden everywhere):`, describeAccess(rt), ...rt.fields.map(describeField)];
  lines.push(`defaultLimit ${rt.defaultLimit}, maxLimit ${rt.maxLimit}`);
  return joinCode(lines.map((line, index) => comment(index === 0 ? line : `  ${line}`)));
}
