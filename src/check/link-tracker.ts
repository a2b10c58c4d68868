/**
 * Which files of a built folder exist (by its manifest) and which some link reaches. Record files are
 * kept as id numbers per folder, so that the millions of links a check follows are set operations,
 * not database updates, and ten times the registry still fits in a few tens of megabytes.
 */
const RECORD_FILE = /^((?:clients|registrants)\/[^/]+)\/([0-9]+)\.json$/;

export class LinkTracker {
  private readonly records = new Map<string, { listed: Set<number>; linked: Set<number> }>();
  private readonly others = new Map<string, boolean>();

  list(file: string): void {
    const record = RECORD_FILE.exec(file);
    if (record) this.folder(record[1]!).listed.add(Number(record[2]));
    else this.others.set(file, false);
  }

  /** Records that a link reaches `file`; false when the manifest has no such file. */
  link(file: string): boolean {
    const record = RECORD_FILE.exec(file);
    if (record) {
      const folder = this.folder(record[1]!);
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
    return record ? this.folder(record[1]!).listed.has(Number(record[2])) : this.others.has(file);
  }

  /** Listed files under `prefix` (a folder, ending in `/`). */
  countUnder(prefix: string): number {
    const records = this.records.get(prefix.slice(0, -1));
    if (records) return records.listed.size;
    let count = 0;
    for (const file of this.others.keys()) if (file.startsWith(prefix)) count++;
    return count;
  }

  *unreached(): Generator<string> {
    for (const [folder, { listed, linked }] of this.records) {
      for (const id of listed) if (!linked.has(id)) yield `${folder}/${id}.json`;
    }
    for (const [file, linked] of this.others) if (!linked) yield file;
  }

  private folder(name: string): { listed: Set<number>; linked: Set<number> } {
    let folder = this.records.get(name);
    if (folder === undefined) this.records.set(name, (folder = { listed: new Set(), linked: new Set() }));
    return folder;
  }
}
