import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { findInputFiles } from '../../src/ingest/find-input-files.ts';

/** What the search mix takes from a client of the bench's input: what a program searches by. */
export interface InputClient {
  name: string;
  /** Its `client_state` code, or null. */
  state: string | null;
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
      const { id, name, state } = JSON.parse(line) as { id: number } & InputClient;
      clients.set(id, { name, state });
    }
  }
  return [...clients.values()];
}
