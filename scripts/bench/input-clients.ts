import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { findInputFiles } from '../../src/ingest/find-input-files.ts';

/** What the search mix takes from a client of the bench's input: what a program searches by. */
export interface InputClient {
  id: number;
  name: string;
  /** Its `client_state` code, or null. */
  state: string | null;
  /**
   * Its registrant's id and name: the first answers' record and `registrant_name` requests
   * (first-requests.ts); with what the registrants list filters on (first-registrant-requests.ts).
   */
  registrant: { id: number; name: string; state?: string | null; country?: string | null; dt_updated?: string | null };
}

/**
 * The clients of an input folder as the build serves them: its records files in the build's order,
 * a later copy of a client replacing the earlier one (the nightly change resends some).
 */
export async function readInputClients(input: string): Promise<InputClient[]> {
  const clients = new Map<number, InputClient>();
  for (const file of await findInputFiles([input])) {
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      if (line === '') continue;
      const { id, name, state, registrant } = JSON.parse(line) as InputClient;
      const { state: registrantState, country, dt_updated } = registrant;
      clients.set(id, { id, name, state, registrant: { id: registrant.id, name: registrant.name, state: registrantState, country, dt_updated } });
    }
  }
  return [...clients.values()];
}
