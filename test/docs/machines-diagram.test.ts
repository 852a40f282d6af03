/** The Mermaid generator behind docs/develop/machines.md: diagrams come from the machine definitions. The committed file must match it. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { machinesMarkdown } from '../../scripts/machines-doc.js';
import { describe, expect, it } from 'vitest';
import { controlMachine } from '../../machines/control.machine.js';
import { orderManagerMachine } from '../../machines/order-manager.machine.js';
import { tradingMachine } from '../../machines/trading.machine.js';
import { toMermaid } from '../../scripts/mermaid.js';

const lines = (text: string) => text.split('\n').map((l) => l.trim());

describe('toMermaid', () => {
  it('draws controlMachine: every state, its transitions, the initial and the final arrow', () => {
    const diagram = toMermaid(controlMachine);
    expect(diagram.startsWith('stateDiagram-v2\n')).toBe(true);
    const body = lines(diagram);
    for (const state of Object.keys(controlMachine.root.states)) expect(body).toContain(state);
    expect(Object.keys(controlMachine.root.states)).toEqual(['running', 'paused', 'killed']);
    expect(body).toContain('[*] --> running');
    expect(body).toContain('running --> paused : control.pause');
    expect(body).toContain('paused --> running : control.resume');
    expect(body).toContain('running --> killed : control.kill');
    expect(body).toContain('paused --> killed : control.kill');
    expect(body).toContain('killed --> [*]');
    // Accepted-but-unchanged calls are internal transitions, listed beside the state, not arrows.
    expect(body).toContain('note right of running : control.resume / acknowledge');
    expect(body.filter((l) => l.startsWith('killed -->'))).toEqual(['killed --> [*]']);
  });

  it('draws orderManagerMachine as one composite with the parallel regions mode and work', () => {
    const body = lines(toMermaid(orderManagerMachine));
    expect(body).toContain('state oms {');
    const mode = body.indexOf('state mode {');
    const divider = body.indexOf('--');
    const work = body.indexOf('state work {');
    expect(mode).toBeGreaterThan(-1);
    expect(divider).toBeGreaterThan(mode);
    expect(work).toBeGreaterThan(divider);
    expect(body).toContain('[*] --> halted');
    expect(body).toContain('[*] --> idle');
    expect(body).toContain('halted --> accepting : oms.resume');
    expect(body).toContain('idle --> busy : always [hasQueuedJob]');
    expect(body).toContain('note right of busy : invokes executeJob');
  });

  it('draws nested states, delayed and eventless transitions of tradingMachine', () => {
    const body = lines(toMermaid(tradingMachine));
    expect(body).toContain('state control {');
    expect(body).toContain('state running {');
    expect(body).toContain('waiting --> cycling : after cycleInterval');
    expect(body).toContain('cycling --> waiting : cycle.finished [thisCycleFinished]');
    expect(body).toContain('starting --> killed : always [bootsInto(state=killed)]');
    expect(body).toContain('control --> stopped : session.stop');
    expect(body).toContain('stopped --> [*]');
  });

  it('writes nothing Mermaid would cut short: no ":" or ";" inside a label', () => {
    for (const machine of [controlMachine, orderManagerMachine, tradingMachine]) {
      for (const line of lines(toMermaid(machine))) {
        const label = line.includes(' : ') ? line.slice(line.indexOf(' : ') + 3) : '';
        expect(label).not.toMatch(/[:;]/);
      }
    }
  });
});

describe('docs/develop/machines.md', () => {
  it('matches the machines as they are now (run `npm run machines:diagram` after changing one)', () => {
    const committed = readFileSync(fileURLToPath(new URL('../../docs/develop/machines.md', import.meta.url)), 'utf8');
    expect(committed).toBe(machinesMarkdown());
  });
});
