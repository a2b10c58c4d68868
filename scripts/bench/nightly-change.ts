/**
 * A nightly-sized change to a records file: 100 new clients, and 50 registrants changed (new name and
 * a later dt_updated), sent again as the later copies of one client each. The later copy of a client
 * replaces the earlier one, and the latest copy of a registrant is served everywhere, so every client
 * of those 50 registrants changes, as on the live service.
 *
 * `night` numbers the nights of a series (scripts/bench/nights.ts), each read with those before it:
 * night n renames other registrants than the nights before (every 97th registrant met, from the n-th),
 * dated a day later than night n - 1's, and adds 100 clients of ids above every night's before it. Night 1 is the bench's
 * one nightly change.
 */
import { createReadStream, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fakeClients } from '../lib/fake-clients.ts';

const NEW_CLIENTS = 100;
const CHANGED_REGISTRANTS = 50;
/** One registrant in this many, as met in the file, is changed: spread over the file, the same ones every run. */
const SPREAD = 97;

export async function writeNightlyChange(baseFile: string, target: string, night = 1): Promise<void> {
  if (!Number.isInteger(night) || night < 1 || night > SPREAD) throw new RangeError(`night must be a whole number from 1 to ${SPREAD}, not ${night}`);
  const registrantsSeen = new Set<number>();
  const resent: string[] = [];
  let maxId = 0;
  const suffix = night === 1 ? ' (RENAMED)' : ` (RENAMED ${night})`;
  const updated = `${new Date(Date.UTC(2030, 0, night)).toISOString().slice(0, 10)}T00:00:00.000000-05:00`;
  for await (const line of createInterface({ input: createReadStream(baseFile), crlfDelay: Infinity })) {
    if (line === '') continue;
    const client = JSON.parse(line) as { id: number; registrant: { id: number; name: string; dt_updated: string } };
    maxId = Math.max(maxId, client.id);
    if (resent.length < CHANGED_REGISTRANTS && !registrantsSeen.has(client.registrant.id)) {
      registrantsSeen.add(client.registrant.id);
      if (registrantsSeen.size % SPREAD === (night - 1) % SPREAD) {
        client.registrant.name = `${client.registrant.name}${suffix}`;
        client.registrant.dt_updated = updated;
        resent.push(JSON.stringify(client));
      }
    }
  }
  // Each night's new clients above every id before them, the earlier nights' included (ids are not
  // consecutive: a generated client may skip some); generated again here, so that a night needs only the base.
  let firstId = maxId + 1;
  for (let earlier = 1; earlier < night; earlier++) firstId = Math.max(...newClients(earlier, firstId).map((client) => client.id as number)) + 1;
  const added = newClients(night, firstId).map((client) => JSON.stringify(client));
  writeFileSync(target, `${[...resent, ...added].join('\n')}\n`);
}

function newClients(night: number, firstId: number): Record<string, unknown>[] {
  return [...fakeClients({ count: NEW_CLIENTS, seed: 6 + night, firstId })];
}
