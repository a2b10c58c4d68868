/**
 * Which files of a built folder exist (by its manifest) and which some link reaches. Record files are
 * kept as id numbers per folder, so that the millions of links a check follows are set operations,
 * not database updates, and ten times the registry still fits in a few tens of megabytes.
 */
export const RECORD_FILE = /^(api\/v1\/(?:clients|registrants)\/)([0-9]+)(\/[^/]+)$/;

/** The key of a record file's group: its route's folder and its file name, `api/v1/clients/*\/index.json`. */
export function groupOf(record: RegExpExecArray): string {
  return `${record[1]}*${record[3]}`;
}

export class LinkTracker {
  private readonly records = new Map<string, { listed: Set<number>; linked: Set<number> }>();
  private readonly others = new Map<string, boolean>();

  list(file: string): void {
    const record = RECORD_FILE.exec(file);
    if (record) this.folder(groupOf(record)).listed.add(Number(record[2]));
    else this.others.set(file, false);
  }

  /** Records that a link reaches `file`; false when the manifest has no such file. */
  link(file: string): boolean {
    const record = RECORD_FILE.exec(file);
    if (record) {
      const folder = this.folder(groupOf(record));
      const id = Number(record[2]);
      folder.linked.add(id);
      return folder.listed.has(id);
    }
    if (!this.others.has(file)) return false;
    this.others.set(file, true);
    return true;
  }

  has(file: string): boolean {
    const record = RECORD_FILE.exec(file);
    return record ? this.folder(groupOf(record)).listed.has(Number(record[2])) : this.others.has(file);
  }

  /** Listed record files of one route and format: `recordPath` `/api/v1/clients/{id}/`, `fileName` `index.json`. */
  countRecords(recordPath: string, fileName: string): number {
    return this.records.get(`${recordPath.slice(1, recordPath.indexOf('{id}'))}*/${fileName}`)?.listed.size ?? 0;
  }

  /** Per folder (ending in `/`), the listed files right inside it whose names match `name`. */
  pagesByFolder(name: RegExp): Map<string, number> {
    const counts = new Map<string, number>();
    for (const file of this.others.keys()) {
      const slash = file.lastIndexOf('/') + 1;
      if (!name.test(file.slice(slash))) continue;
      const folder = file.slice(0, slash);
      counts.set(folder, (counts.get(folder) ?? 0) + 1);
    }
    return counts;
  }

  *unreached(): Generator<string> {
    for (const [folder, { listed, linked }] of this.records) {
      for (const id of listed) if (!linked.has(id)) yield folder.replace('*', String(id));
    }
    for (const [file, linked] of this.others) if (!linked) yield file;
  }

  private folder(name: string): { listed: Set<number>; linked: Set<number> } {
    let folder = this.records.get(name);
    if (folder === undefined) this.records.set(name, (folder = { listed: new Set(), linked: new Set() }));
    return folder;
  }
}
