/**
 * The provisioned Grafana dashboard loads as provisioned: valid JSON, unique panel ids, every panel
 * and query on the datasource uid the provisioning file creates, panels within Grafana's 24 columns,
 * and the dashboard provider reading the folder docker-compose.yml mounts the dashboards in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { uid: string };
  gridPos: { x: number; w: number };
  targets?: { datasource?: { uid: string }; expr: string }[];
}

describe('deploy/grafana', () => {
  const dashboard = JSON.parse(read('deploy/grafana/dashboards/tcs-overview.json')) as { uid: string; panels: Panel[] };
  const uid = /^ {4}uid: (\S+)$/m.exec(read('deploy/grafana/provisioning/datasources/prometheus.yml'))?.[1];

  it('queries the provisioned datasource from every panel, with unique ids, inside 24 columns', () => {
    expect(uid).toBe('tcs-prometheus');
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
    for (const panel of dashboard.panels) {
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
      if (panel.type === 'row') continue;
      expect(panel.datasource?.uid, panel.title).toBe(uid);
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const t of panel.targets ?? []) expect(t.datasource?.uid, panel.title).toBe(uid);
    }
  });

  it('is read from the folder the compose file mounts the dashboards in', () => {
    const path = /^ {6}path: (\S+)$/m.exec(read('deploy/grafana/provisioning/dashboards/tcs.yml'))?.[1];
    const compose = read('docker-compose.yml');
    expect(compose).toContain(`./deploy/grafana/dashboards:${path}:ro`);
    expect(compose).toContain('./deploy/grafana/provisioning:/etc/grafana/provisioning:ro');
  });
});
