// The policy's types hold where users compile them (issue 31): __tests__/types' type tests, with their refusals,
// compiled against this repository's build as the installed `tessera-api`, under NodeNext resolution in an ES module
// project (what `tessera init` writes) and under Bundler resolution. tsc reports an unused `@ts-expect-error`, so a
// refusal that starts compiling fails here.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, temporaryFolder } from '../helpers/bundles';

const TSC = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
const TYPE_TESTS = ['policy-types.types.ts', 'include-types.types.ts', 'column-rules.types.ts', 'register/registered-context.types.ts'];
const STRICT = { strict: true, noEmit: true, skipLibCheck: true, target: 'ES2022', lib: ['ES2022', 'DOM'], types: ['node'], esModuleInterop: true };
const RESOLUTIONS = {
  NodeNext: { module: 'NodeNext', moduleResolution: 'NodeNext' },
  Bundler: { module: 'ESNext', moduleResolution: 'Bundler' },
};

/** tsc's diagnostics for one file under one resolution ('' when it compiles). */
function compile(folder: string, file: string, resolution: keyof typeof RESOLUTIONS): string {
  const project = path.join(folder, `tsconfig.${resolution}.${path.basename(file, '.ts')}.json`);
  fs.writeFileSync(project, JSON.stringify({ compilerOptions: { ...STRICT, ...RESOLUTIONS[resolution] }, files: [file] }));
  try {
    execFileSync(process.execPath, [TSC, '-p', project, '--pretty', 'false'], { cwd: folder, encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? String(error);
  }
}

describe('the policy types in a user project', () => {
  const folder = temporaryFolder('policy-types');

  beforeAll(() => {
    fs.writeFileSync(path.join(folder.path, 'package.json'), JSON.stringify({ name: 'policy-types-check', private: true, type: 'module' }));
    for (const file of TYPE_TESTS) fs.copyFileSync(path.join(REPO_ROOT, '__tests__/types', file), path.join(folder.path, path.basename(file)));
  });

  for (const resolution of Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[]) {
    for (const file of TYPE_TESTS) {
      it(`compiles ${file}, every refusal refused, under ${resolution} resolution`, () => {
        expect(compile(folder.path, path.basename(file), resolution)).toBe('');
      }, 60_000);
    }
  }

  it('reports a refusal that compiles: the check can fail', () => {
    fs.writeFileSync(path.join(folder.path, 'wrong.ts'), "// @ts-expect-error nothing is wrong here\nexport const fine: number = 1;\n");
    expect(compile(folder.path, 'wrong.ts', 'NodeNext')).toMatch(/TS2578: Unused '@ts-expect-error' directive/);
  }, 60_000);
});
