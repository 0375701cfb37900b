// The one rule for the path options of createServer (prefix, openApiPath, docsPath, swaggerPath,
// reference.path): "/"-separated segments of URL-safe characters, so Express takes them literally.
import { SetupError } from '../errors';

const PATH_OPTION = /^(\/[A-Za-z0-9._~-]+)+$/;

/** The path, or a SetupError naming the option and showing a well-formed example. */
export function checkPathOption(option: string, value: unknown, example: string): string {
  if (typeof value !== 'string' || !PATH_OPTION.test(value)) {
    throw new SetupError(`${option} ${JSON.stringify(value)} must be "/"-separated path segments, such as "${example}"`);
  }
  return value;
}
