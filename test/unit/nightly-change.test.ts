import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeClients } from '../../scripts/lib/fake-clients.ts';
import { writeNightlyChange } from '../../scripts/bench/nightly-change.ts';

/** The bench's nightly changes (scripts/bench/nightly-change.ts): one night, and nights in a row (scripts/bench/nights.ts). */
interface Line {
  id: number;
  registrant: { id: number; name: string; dt_updated: string };
}

const folder = mkdtempSync(path.join(os.tmpdir(), 'nightly-change-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const base = path.join(folder, 'clients.ndjson');
const baseLines = [...fakeClients({ count: 3000, seed: 3, firstId: 1000 })].map((client) => JSON.stringify(client));
writeFileSync(base, `${baseLines.join('\n')}\n`);
const baseClients = baseLines.map((line) => JSON.parse(line) as Line);
const baseIds = new Set(baseClients.map((client) => client.id));
const maxId = Math.max(...baseIds);

async function night(n: number): Promise<{ resent: Line[]; added: Line[] }> {
  const target = path.join(folder, `night-${n}.ndjson`);
  await writeNightlyChange(base, target, n);
  const lines = readFileSync(target, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Line);
  return { resent: lines.filter((line) => baseIds.has(line.id)), added: lines.filter((line) => !baseIds.has(line.id)) };
}

describe('nightly change', () => {
  it('resends one client of each changed registrant, renamed and dated later, and adds 100 clients above every id', async () => {
    const { resent, added } = await night(1);
    expect(resent.length).toBeGreaterThan(0);
    expect(new Set(resent.map((line) => line.registrant.id)).size).toBe(resent.length);
    for (const line of resent) {
      const before = baseClients.find((client) => client.id === line.id)!;
      expect(line.registrant.name).toBe(`${before.registrant.name} (RENAMED)`);
      expect(Date.parse(line.registrant.dt_updated)).toBeGreaterThan(Date.parse(before.registrant.dt_updated));
    }
    expect(added).toHaveLength(100);
    expect(Math.min(...added.map((line) => line.id))).toBe(maxId + 1);
  });

  it('changes other registrants each night, later each night, and adds clients of ids no night before took', async () => {
    const nights = [await night(1), await night(2), await night(3)];
    const registrants = nights.map(({ resent }) => new Set(resent.map((line) => line.registrant.id)));
    for (const [i, a] of registrants.entries()) {
      expect(a.size).toBeGreaterThan(0);
      for (const b of registrants.slice(i + 1)) expect([...a].filter((id) => b.has(id))).toEqual([]);
    }
    const dates = nights.map(({ resent }) => Date.parse(resent[0]!.registrant.dt_updated));
    expect(dates[1]).toBeGreaterThan(dates[0]!);
    expect(dates[2]).toBeGreaterThan(dates[1]!);
    expect(nights[2]!.resent[0]!.registrant.name).toMatch(/ \(RENAMED 3\)$/);
    const ids = nights.flatMap(({ added }) => added.map((line) => line.id));
    expect(new Set(ids).size).toBe(300);
  });

  it('is the same change every run', async () => {
    const first = await night(2);
    expect(await night(2)).toEqual(first);
  });

  it('refuses a night it cannot number', async () => {
    await expect(writeNightlyChange(base, path.join(folder, 'x.ndjson'), 0)).rejects.toThrow(/night must be a whole number from 1 to 97, not 0/);
  });
});
