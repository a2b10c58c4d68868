/**
 * A nightly-sized change to a records file: 100 new clients, and 50 registrants changed (new name and
 * a later dt_updated), sent again as the later copies of one client each. The later copy of a client
 * replaces the earlier one, and the latest copy of a registrant is served everywhere, so every client
 * of those 50 registrants changes, as on the live service.
 */
import { createReadStream, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fakeClients } from '../lib/fake-clients.ts';

export async function writeNightlyChange(baseFile: string, target: string): Promise<void> {
  const registrantsSeen = new Set<number>();
  const resent: string[] = [];
  let maxId = 0;
  for await (const line of createInterface({ input: createReadStream(baseFile), crlfDelay: Infinity })) {
    if (line === '') continue;
    const client = JSON.parse(line) as { id: number; registrant: { id: number; name: string; dt_updated: string } };
    maxId = Math.max(maxId, client.id);
    // Every 97th registrant met, until 50: spread over the file, the same ones every run.
    if (resent.length < 50 && !registrantsSeen.has(client.registrant.id)) {
      registrantsSeen.add(client.registrant.id);
      if (registrantsSeen.size % 97 === 0) {
        client.registrant.name = `${client.registrant.name} (RENAMED)`;
        client.registrant.dt_updated = '2030-01-01T00:00:00.000000-05:00';
        resent.push(JSON.stringify(client));
      }
    }
  }
  const added = [...fakeClients({ count: 100, seed: 7, firstId: maxId + 1 })].map((client) => JSON.stringify(client));
  writeFileSync(target, `${[...resent, ...added].join('\n')}\n`);
}
