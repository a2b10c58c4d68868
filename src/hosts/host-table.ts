import { BEHAVIOURS, type Behaviour } from './behaviours.ts';
import type { HostAdapter } from './host-adapter.ts';

/**
 * docs/hosts.md's table of hosts by behaviour, rendered from the adapters' declared gaps: a cell is
 * "yes" when the host answers that behaviour's probes like `preview --static`, else a numbered note
 * with the reason (one note for the cells of a host that share a reason). Tests send the probes to
 * every host without code, so each cell is backed by one (test/support/host-suite.ts). The hosts that
 * run the answerer follow, named: they answer every request as the live service does, no gaps.
 */
export function hostTable(hosts: HostAdapter[]): string {
  const behaviours = Object.keys(BEHAVIOURS) as Behaviour[];
  const notes: { host: string; reason: string; labels: string[] }[] = [];
  const exact = hosts.filter((host) => host.profile === 'exact').map((host) => host.name);
  const rows = hosts.filter((host) => host.profile !== 'exact').map((host) => {
    const cells = behaviours.map((behaviour) => {
      const reason = host.gaps[behaviour];
      if (reason === undefined) return 'yes';
      let note = notes.find((candidate) => candidate.host === host.name && candidate.reason === reason);
      if (note === undefined) notes.push((note = { host: host.name, reason, labels: [] }));
      note.labels.push(BEHAVIOURS[behaviour].label);
      return `no (${notes.indexOf(note) + 1})`;
    });
    return `| ${host.name} | ${cells.join(' | ')} |`;
  });
  return [
    `| host | ${behaviours.map((behaviour) => BEHAVIOURS[behaviour].label).join(' | ')} |`,
    `|---|${behaviours.map(() => '---').join('|')}|`,
    ...rows,
    '',
    ...notes.map((note, index) => `${index + 1}. ${note.host}, ${note.labels.join(', ')}: ${note.reason}.`),
    '',
    `Where code runs, every request is answered as the live service answers it (contract section 9), with no gap: ${exact.join(', ')}, as the preview by default.`,
  ].join('\n');
}
