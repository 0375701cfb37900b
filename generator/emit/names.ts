// Identifiers of generated code, derived from resource and action names (never from counters), so one
// resource's change cannot rename anything in another's file.

function words(text: string): string[] {
  return text.split(/[-_]+/).filter((word) => word.length > 0);
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** `notes` + `findOne` → `findOneNotes`; `order-items` + `list` → `listOrderItems`. */
export function crudHandlerName(resource: string, action: string): string {
  return action + words(resource).map(capitalize).join('');
}

/** `send-digest` → `sendDigestAction`. */
export function serviceActionHandlerName(action: string): string {
  const [first, ...rest] = words(action);
  return first + rest.map(capitalize).join('') + 'Action';
}
