import { BEHAVIOURS, type Behaviour } from './behaviours.ts';
import type { HostAdapter } from './host-adapter.ts';

/**
 * The README's table of hosts by behaviour, rendered from the adapters' declared gaps: a cell is
 * "yes" when the host answers that behaviour's probes like the preview, else a numbered note with the
 * reason. Tests send the probes to every host, so each cell is backed by one (test/support/host-suite.ts).
 */
export function hostTable(hosts: HostAdapter[]): string {
  const behaviours = Object.keys(BEHAVIOURS) as Behaviour[];
  const notes: string[] = [];
  const rows = hosts.map((host) => {
    const cells = behaviours.map((behaviour) => {
      const gap = host.gaps[behaviour];
      if (gap === undefined) return 'yes';
      notes.push(`${host.name}, ${BEHAVIOURS[behaviour].label}: ${gap}.`);
      return `no (${notes.length})`;
    });
    return `| ${host.name} | ${cells.join(' | ')} |`;
  });
  return [
    `| host | ${behaviours.map((behaviour) => BEHAVIOURS[behaviour].label).join(' | ')} |`,
    `|---|${behaviours.map(() => '---').join('|')}|`,
    ...rows,
    '',
    ...notes.map((note, index) => `${index + 1}. ${note}`),
  ].join('\n');
}
