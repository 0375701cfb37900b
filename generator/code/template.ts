// Fills the source templates of templates/ (slots written `{{slot}}` on a line of their own) with Code;
// a slot left empty or a value for a slot the template lacks is a BuildError, never silent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BuildError } from '../errors';
import { Code, trustedSource } from './code';

const TEMPLATES_DIR = join(__dirname, '..', '..', 'templates');
const SLOT = /\{\{([A-Za-z]+)\}\}/g;
const cache = new Map<string, string>();

function readTemplate(file: string): string {
  let text = cache.get(file);
  if (text === undefined) {
    text = readFileSync(join(TEMPLATES_DIR, file), 'utf8');
    cache.set(file, text);
  }
  return text;
}

export function fillTemplate(file: string, slots: Record<string, Code>): Code {
  const text = readTemplate(file);
  const used = new Set<string>();
  const filled = text.replace(SLOT, (_match, slot: string) => {
    const value = slots[slot];
    if (!(value instanceof Code)) throw new BuildError(`template ${file}: slot {{${slot}}} has no code`);
    used.add(slot);
    return value.toString();
  });
  for (const slot of Object.keys(slots)) {
    if (!used.has(slot)) throw new BuildError(`template ${file} has no slot {{${slot}}}`);
  }
  return trustedSource(filled);
}
