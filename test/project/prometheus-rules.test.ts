/**
 * The alert rules that ship in deploy/prometheus: `promtool check rules` and `promtool check config`
 * accept them, `promtool test rules` passes alerts.test.yml, every alert has a case there that fires
 * and one that does not, and each alert carries `for:`, a severity, a summary, a description and a
 * runbook_url naming an existing docs/operate page and heading.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { uniqueSlugs } from '../../scripts/docs/github-slug.js';
import { findTool, skipWithout } from '../support/tools.js';

const DIR = join(import.meta.dirname, '../../deploy/prometheus');
const ROOT = join(import.meta.dirname, '../..');
const promtool = findTool([['promtool']], ['--version']);

function run(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync('promtool', args, { cwd: DIR, encoding: 'utf8', timeout: 60_000 });
  if (result.error) throw new Error(`promtool is needed (apt-get install prometheus): ${result.error.message}`);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Each `- alert:` block of alerts.yml as its name and text (no YAML parser in the dependencies). */
function alertBlocks(): { name: string; text: string }[] {
  const text = readFileSync(join(DIR, 'alerts.yml'), 'utf8');
  return text
    .split(/^ {6}- alert: /m)
    .slice(1)
    .map((block) => ({ name: block.split('\n')[0]!.trim(), text: block }));
}

/** Heading anchors of a Markdown page, as GitHub and the docs site make them (code blocks skipped). */
function anchors(page: string): Set<string> {
  const headings: string[] = [];
  let fenced = false;
  for (const line of readFileSync(page, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (m) headings.push(m[1]!);
  }
  return new Set(uniqueSlugs(headings));
}

describe.skipIf(skipWithout(promtool, 'promtool', 'apt-get install prometheus'))(
  'deploy/prometheus with promtool',
  () => {
    it('promtool check rules accepts alerts.yml', () => {
      const result = run('check', 'rules', 'alerts.yml');
      expect(result.output).toContain(`SUCCESS: ${alertBlocks().length} rules found`);
      expect(result.status).toBe(0);
    });

    it('promtool check config accepts prometheus.yml (and the rules it loads)', () => {
      expect(run('check', 'config', 'prometheus.yml').status).toBe(0);
    });

    it('promtool test rules passes alerts.test.yml', () => {
      const result = run('test', 'rules', 'alerts.test.yml');
      expect(result.output).toContain('SUCCESS');
      expect(result.status, result.output).toBe(0);
    });
  },
);

describe('deploy/prometheus/alerts.yml', () => {
  const alerts = alertBlocks();

  it('has the alerts the operators asked for', () => {
    expect(alerts.map((a) => a.name).sort()).toEqual(
      [
        'TcsAgentErrors',
        'TcsApiDown',
        'TcsExchangeBanned',
        'TcsExchangeUnreachable',
        'TcsHttpErrors',
        'TcsKilled',
        'TcsNoCycle',
        'TcsNotifierBacklog',
        'TcsNotifierSilent',
        'TcsPositionDrift',
        'TcsRiskHalted',
        'TcsRiskReducing',
        'TcsStoreWriteRefused',
        'TcsTradingHalted',
        'TcsTradingMetricsMissing',
      ].sort(),
    );
  });

  it('gives each alert for:, a severity, a summary, a description and a runbook in docs/operate', () => {
    for (const { name, text } of alerts) {
      expect(text, name).toMatch(/^ {8}for: \d+[smh]$/m);
      expect(text, name).toMatch(/^ {10}severity: (critical|warning)$/m);
      expect(text, name).toMatch(/^ {10}summary: (['"]).+\1$/m);
      expect(text, name).toMatch(/^ {10}description: (['"]).+\1$/m);
      const runbook = /^ {10}runbook_url: '(docs\/operate\/[a-z-]+\.md)#([a-z0-9-]+)'$/m.exec(text);
      expect(runbook, `${name}: runbook_url docs/operate/<page>.md#<heading>`).not.toBeNull();
      expect(anchors(join(ROOT, runbook![1]!)), `${name}: ${runbook![1]}#${runbook![2]}`).toContain(runbook![2]);
    }
  });

  it('has, for every alert, a case in alerts.test.yml that fires and one that does not', () => {
    const cases = readFileSync(join(DIR, 'alerts.test.yml'), 'utf8')
      .split(/^ {6}- eval_time: /m)
      .slice(1)
      .map((c) => ({ alert: /alertname: (\w+)/.exec(c)?.[1], fires: !/exp_alerts: \[\]/.test(c) }));
    for (const { name } of alerts) {
      expect(cases.filter((c) => c.alert === name && c.fires).length, `${name} fires`).toBeGreaterThan(0);
      expect(cases.filter((c) => c.alert === name && !c.fires).length, `${name} does not`).toBeGreaterThan(0);
    }
  });
});
