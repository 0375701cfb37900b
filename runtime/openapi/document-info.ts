// The document's `info` object from the server options: title, version, description, and the `license` and
// `contact` options (OpenAPI 3.1 License and Contact Objects), checked so a mistake is a SetupError at construction.
import type { OpenAPIV3_1 } from 'openapi-types';
import { SetupError } from '../errors';

/**
 * OpenAPI `info.license`: a name, with an SPDX `identifier` or a `url` (not both).
 *
 * @example
 * license: { name: 'MIT', identifier: 'MIT' }
 */
export interface LicenseOption {
  name: string;
  identifier?: string;
  url?: string;
}

/**
 * OpenAPI `info.contact`: who answers for the API; at least one field.
 *
 * @example
 * contact: { name: 'API team', email: 'api@example.com', url: 'https://example.com/support' }
 */
export interface ContactOption {
  name?: string;
  url?: string;
  email?: string;
}

export interface DocumentInfoOptions {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  readonly license?: LicenseOption;
  readonly contact?: ContactOption;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of `value` with only the listed string fields (in this order), or a SetupError naming the bad one. */
function stringFields(option: string, value: unknown, fields: readonly string[]): Record<string, string> {
  if (!isObject(value)) throw new SetupError(`${option} must be an object: { ${fields.join(', ')} }`);
  for (const key of Object.keys(value)) if (!fields.includes(key)) throw new SetupError(`${option}.${key} is not a field of ${option} (${fields.join(', ')})`);
  const copy: Record<string, string> = {};
  for (const field of fields) {
    const text = value[field];
    if (text === undefined) continue;
    if (typeof text !== 'string' || text.trim() === '') throw new SetupError(`${option}.${field} must be a non-empty string`);
    copy[field] = text;
  }
  return copy;
}

function checkUrl(option: string, url: string | undefined): void {
  if (url !== undefined && !URL.canParse(url)) throw new SetupError(`${option} must be an absolute URL, such as "https://example.com/"`);
}

function checkLicense(value: unknown): OpenAPIV3_1.LicenseObject {
  const license = stringFields('license', value, ['name', 'identifier', 'url']);
  if (license.name === undefined) throw new SetupError('license.name is required (for example "MIT")');
  if (license.identifier !== undefined && license.url !== undefined) throw new SetupError('license takes an SPDX identifier or a url, not both (OpenAPI 3.1)');
  checkUrl('license.url', license.url);
  return license as unknown as OpenAPIV3_1.LicenseObject;
}

function checkContact(value: unknown): OpenAPIV3_1.ContactObject {
  const contact = stringFields('contact', value, ['name', 'url', 'email']);
  if (Object.keys(contact).length === 0) throw new SetupError('contact needs a name, url or email');
  checkUrl('contact.url', contact.url);
  if (contact.email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(contact.email)) throw new SetupError('contact.email must be an email address');
  return contact;
}

/** The OpenAPI `info` object; a SetupError names a bad `license` or `contact`. */
export function documentInfo(options: DocumentInfoOptions): OpenAPIV3_1.InfoObject {
  const info: OpenAPIV3_1.InfoObject = { title: options.title, version: options.version };
  if (options.description !== undefined) info.description = options.description;
  if (options.contact !== undefined) info.contact = checkContact(options.contact);
  if (options.license !== undefined) info.license = checkLicense(options.license);
  return info;
}
