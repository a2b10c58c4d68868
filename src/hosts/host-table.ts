import { BEHAVIOURS, type Behaviour } from './behaviours.ts';
import type { HostAdapter } from './host-adapter.ts';

/**
 * docs/hosts.md's table of hosts by behaviour, rendered from the adapters' declared gaps: a cell is
 * "yes" when the host answers that behaviour's probes like the preview, else a numbered note with the
 * reason (one note for the cells of a host that share a reason). Tests send the probes to every host
 * that answers by the map, so each cell is backed by one (test/support/host-suite.ts).
 */
export function hostTable(hosts: HostAdapter[]): string {
  const behaviours = Object.keys(BEHAVIOURS) as Behaviour[];
  const notes: { host: string; reason: string; labels: string[] }[] = [];
  // A host that answers by section 9 is held to the exact sets instead: the probes compare answers by the map.
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
  ].join('\n');
}
