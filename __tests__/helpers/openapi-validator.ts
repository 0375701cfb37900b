// A real OpenAPI 3.1 validator (@seriousme/openapi-schema-validator) for the tests. The package is ESM only
// and jest runs CommonJS, so it runs in a child node process that reads the document on stdin.
import { spawn } from 'node:child_process';

export interface OpenApiVerdict {
  valid: boolean;
  errors?: unknown;
}

const SCRIPT = `
import { Validator } from '@seriousme/openapi-schema-validator';
let text = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) text += chunk;
const result = await new Validator().validate(JSON.parse(text));
process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors }));
`;

/** Validates an OpenAPI document (a JSON-able object) with the validator's OpenAPI 3.1 schema. */
export function validateOpenApi(document: unknown): Promise<OpenApiVerdict> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], { cwd: __dirname, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the OpenAPI validator exited with ${code}: ${stderr}`));
      resolve(JSON.parse(stdout) as OpenApiVerdict);
    });
    child.stdin.end(JSON.stringify(document));
  });
}
