// Reads the Prometheus text exposition format (version 0.0.4) back into samples, for the /metrics tests: every
// line checked against the format's grammar (names, quoted and escaped label values, numbers, +Inf/NaN), and
// every sample's family declared by a TYPE line before it. A line that does not parse fails the test.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** Family name → its TYPE. */
  types: Map<string, string>;
  samples: Sample[];
  /** The value of the one sample with this name whose labels include `labels`; throws when there is not exactly one. */
  value(name: string, labels?: Record<string, string>): number;
  /** Every sample of `name` whose labels include `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE_LINE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\[\\"n])*)"\s*(,|$)/y;
const FAMILY_SUFFIXES = ['_bucket', '_sum', '_count', ''];

/** As Prometheus reads values (Go's ParseFloat): `+Inf`, `-Inf` and `NaN` in any case (prom-client writes `Nan`). */
function parseNumber(text: string, line: string): number {
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return Number.NaN;
  if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a number in "${line}"`);
  return Number(text);
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text);
    if (match === null) throw new Error(`malformed labels in "${line}"`);
    labels[match[1]] = match[2].replace(/\\(["\\n])/g, (_, escaped: string) => (escaped === 'n' ? '\n' : escaped));
    if (match[3] === '') break;
  }
  return labels;
}

function includes(labels: Record<string, string>, wanted: Record<string, string>): boolean {
  return Object.entries(wanted).every(([name, value]) => labels[name] === value);
}

export function parsePrometheusText(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('# HELP ')) continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type !== null) {
      if (types.has(type[1])) throw new Error(`family ${type[1]} is declared twice`);
      types.set(type[1], type[2]);
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = SAMPLE_LINE.exec(line);
    if (match === null) throw new Error(`not a sample line: "${line}"`);
    const name = match[1];
    const family = FAMILY_SUFFIXES.map((suffix) => (name.endsWith(suffix) ? name.slice(0, name.length - suffix.length) : null)).find((candidate) => candidate !== null && types.has(candidate));
    if (family === undefined) throw new Error(`sample ${name} has no TYPE line before it`);
    samples.push({ name, labels: match[2] === undefined ? {} : parseLabels(match[2], line), value: parseNumber(match[3], line) });
  }
  const find = (name: string, labels: Record<string, string> = {}) => samples.filter((sample) => sample.name === name && includes(sample.labels, labels));
  return {
    types,
    samples,
    find,
    value(name, labels = {}) {
      const found = find(name, labels);
      if (found.length !== 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0].value;
    },
  };
}
