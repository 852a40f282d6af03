/**
 * The /metrics text from several processes' expositions. Both processes export prom-client's
 * default metrics under the same names (told apart by their `process` label), so plain
 * concatenation would repeat `# HELP`/`# TYPE` for one family, which the text format forbids:
 * families with one name are merged into one block, in order of first appearance. It also gives
 * prom-client's three gauges named `_total` (a suffix reserved for counters) their public names.
 */

/** prom-client's gauges whose names end in `_total`; `sum(nodejs_active_handles)` gives the same by type. */
export const RENAMED_FAMILIES: Readonly<Record<string, string>> = {
  nodejs_active_handles_total: 'nodejs_active_handles_all',
  nodejs_active_requests_total: 'nodejs_active_requests_all',
  nodejs_active_resources_total: 'nodejs_active_resources_all',
};

interface Family {
  name: string;
  help?: string;
  type?: string;
  samples: string[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const HEADER = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*)(?: (.*))?$/;
/** Sample suffixes that belong to the family of a histogram or summary. */
const SERIES_SUFFIXES = ['_bucket', '_sum', '_count', '_created'];

const publicName = (name: string) => RENAMED_FAMILIES[name] ?? name;

function belongsTo(family: Family | undefined, sampleName: string): family is Family {
  if (!family) return false;
  if (sampleName === family.name) return true;
  if (family.type !== 'histogram' && family.type !== 'summary') return false;
  return SERIES_SUFFIXES.some((suffix) => sampleName === family.name + suffix);
}

/** Adds one exposition's families to `families`; a family whose TYPE disagrees with an earlier one is left out. */
function addExposition(text: string, families: Map<string, Family>): void {
  // Families of this text only: a name seen before is merged into, but its type must agree.
  const own = new Map<string, Family>();
  let current: Family | undefined;
  const familyFor = (rawName: string): Family => {
    const name = publicName(rawName);
    let family = own.get(name);
    if (!family) {
      family = { name, samples: [] };
      own.set(name, family);
    }
    return family;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const header = HEADER.exec(line);
    if (header) {
      current = familyFor(header[2]!);
      if (header[1] === 'HELP') current.help = header[3] ?? '';
      else current.type = header[3] ?? 'untyped';
      continue;
    }
    if (line.startsWith('#')) continue; // other comments carry nothing
    const rawName = METRIC_NAME.exec(line)?.[0];
    if (!rawName) continue;
    const name = publicName(rawName);
    const sample = name === rawName ? line : name + line.slice(rawName.length);
    if (!belongsTo(current, name)) current = familyFor(name);
    current.samples.push(sample);
  }
  for (const family of own.values()) {
    const earlier = families.get(family.name);
    if (!earlier) families.set(family.name, family);
    else if ((earlier.type ?? 'untyped') === (family.type ?? 'untyped')) earlier.samples.push(...family.samples);
  }
}

/** One valid exposition: every family once, with its samples from every text in the order given. */
export function mergeExpositions(texts: readonly string[]): string {
  const families = new Map<string, Family>();
  for (const text of texts) addExposition(text, families);
  let out = '';
  for (const family of families.values()) {
    if (family.help !== undefined) out += `# HELP ${family.name} ${family.help}\n`;
    if (family.type !== undefined) out += `# TYPE ${family.name} ${family.type}\n`;
    for (const sample of family.samples) out += `${sample}\n`;
  }
  return out;
}
