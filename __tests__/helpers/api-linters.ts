// The linters API reviewers run on an OpenAPI document, at the exact versions package.json pins: Redocly CLI
// (its `recommended` ruleset), Spectral (`spectral:oas` and the OWASP ruleset), each run as its own CLI on a
// file, offline; and Prometheus's `promtool check metrics` (Debian's `prometheus` package) on /metrics text.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './bundles';

const run = promisify(execFile);
const RULESETS = path.join(__dirname, 'lint');
const REDOCLY = path.join(REPO_ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const SPECTRAL = path.join(REPO_ROOT, 'node_modules/@stoplight/spectral-cli/dist/index.js');
export const PROMTOOL = '/usr/bin/promtool';
/** Each CLI starts in a few seconds; on a loaded machine, much more. */
export const LINT_TIMEOUT_MS = 120_000;

/** One finding: the rule, `error` or `warning` (Spectral's `info` and `hint` too), and where, as a JSON path. */
export interface LintFinding {
  readonly rule: string;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly path: string;
  readonly message: string;
}

/** No telemetry, no update check: the linters stay on this machine. */
const QUIET_ENV = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

/** Writes `document` to a fresh file (the CLIs read files), runs `lint` on it and removes it. */
export async function withDocumentFile<T>(document: unknown, lint: (file: string) => Promise<T>): Promise<T> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-lint-'));
  const file = path.join(folder, 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(document, null, 2));
  try {
    return await lint(file);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** Redocly CLI `lint` with `__tests__/helpers/lint/redocly.yaml` (extends `recommended`). */
export async function redoclyLint(file: string): Promise<LintFinding[]> {
  // Exit code 1 when it finds errors; the JSON report is on stdout either way.
  const { stdout } = await run(process.execPath, [REDOCLY, 'lint', file, '--format=json', `--config=${path.join(RULESETS, 'redocly.yaml')}`], { env: QUIET_ENV, cwd: RULESETS, maxBuffer: 64 << 20 }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
  );
  const report = JSON.parse(stdout) as { problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
  return report.problems.map((problem) => ({ rule: problem.ruleId, severity: problem.severity === 'error' ? 'error' : 'warning', path: problem.location[0]?.pointer ?? '', message: problem.message }));
}

const SPECTRAL_SEVERITIES = ['error', 'warning', 'info', 'hint'] as const;

/** Spectral `lint` with one of the rulesets of `__tests__/helpers/lint/` (`spectral-oas.yaml`, `spectral-owasp.yaml`). */
export async function spectralLint(file: string, ruleset: 'spectral-oas' | 'spectral-owasp'): Promise<LintFinding[]> {
  const output = `${file}.${ruleset}.json`;
  const args = [SPECTRAL, 'lint', file, '--ruleset', path.join(RULESETS, `${ruleset}.yaml`), '--format', 'json', '--output', output, '--fail-severity', 'error'];
  // Exit code 1 when it finds errors; the report file is written either way.
  await run(process.execPath, args, { env: QUIET_ENV, cwd: RULESETS }).catch(() => undefined);
  if (!fs.existsSync(output)) throw new Error(`spectral wrote no report for ${ruleset}`);
  const report = JSON.parse(fs.readFileSync(output, 'utf8')) as { code: string; severity: number; path: string[]; message: string }[];
  return report.map((finding) => ({ rule: finding.code, severity: SPECTRAL_SEVERITIES[finding.severity], path: finding.path.join('/'), message: finding.message }));
}

/** Counts of findings by `severity rule`, for messages that show the whole picture at once. */
export function countFindings(findings: readonly LintFinding[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const finding of findings) counts[`${finding.severity} ${finding.rule}`] = (counts[`${finding.severity} ${finding.rule}`] ?? 0) + 1;
  return counts;
}

/** `promtool check metrics` on a /metrics text: its exit code and what it printed (one line per problem). */
export function promtoolCheckMetrics(text: string): Promise<{ status: number; output: string }> {
  if (!fs.existsSync(PROMTOOL)) throw new Error(`${PROMTOOL} is missing: apt-get install prometheus (bash .ci/run does it)`);
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status: status ?? -1, output: output.trim() }));
    child.stdin.end(text);
  });
}
