import * as fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ThreadWriter, nodeThreadIO, type ThreadIO } from '../../src/write/thread-writer.ts';
import { tempFolder } from '../support/temp-folder.ts';

/** The writer's file system calls, counted by name. */
function countingIO(): { io: ThreadIO; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const io = Object.fromEntries(
    (['writeFileSync', 'linkSync', 'copyFileSync', 'mkdirSync'] as const).map((name) => [
      name,
      (...args: unknown[]) => {
        calls[name] = (calls[name] ?? 0) + 1;
        return (nodeThreadIO[name] as (...args: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as ThreadIO;
  return { io, calls };
}

describe('the render thread\'s writer', () => {
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    temp = tempFolder();
  });
  afterEach(() => temp.remove());

  it('writes into folders made first with no call per file about its folder', () => {
    const { io, calls } = countingIO();
    const writer = new ThreadWriter(temp.path, undefined, io);
    writer.makeFolders(['a/', 'a/b/', 'c/d/']);
    for (const file of ['a/index.json', 'a/page=2.json', 'a/b/index.json', 'c/d/index.json']) writer.write(file, Buffer.from(file));
    expect(calls).toEqual({ mkdirSync: 3, writeFileSync: 4 });
    expect(fs.readFileSync(path.join(temp.path, 'c/d/index.json'), 'utf8')).toBe('c/d/index.json');
    expect(writer.stats).toMatchObject({ written: 4, bytesWritten: 53 });
  });

  it('makes a folder not made first when the file system says it is missing, then writes or links the file', () => {
    const previous = path.join(temp.path, 'previous');
    fs.mkdirSync(path.join(previous, 'x/y'), { recursive: true });
    fs.writeFileSync(path.join(previous, 'x/y/index.json'), 'same');
    const { io, calls } = countingIO();
    const writer = new ThreadWriter(path.join(temp.path, 'new'), previous, io);
    writer.makeFolders(['']);
    writer.write('e/f/index.json', Buffer.from('new'));
    writer.write('e/f/page=2.json', Buffer.from('new'));
    writer.link('x/y/index.json', 4);
    expect(calls).toEqual({ mkdirSync: 3, writeFileSync: 3, linkSync: 2 });
    expect(fs.readFileSync(path.join(temp.path, 'new/e/f/page=2.json'), 'utf8')).toBe('new');
    expect(fs.statSync(path.join(temp.path, 'new/x/y/index.json')).ino).toBe(fs.statSync(path.join(previous, 'x/y/index.json')).ino);
    expect(writer.stats).toEqual({ written: 2, bytesWritten: 6, linked: 1, bytesLinked: 4 });
  });

  it('names the file when it cannot be written after its folder was made', () => {
    const writer = new ThreadWriter(temp.path, undefined, { ...nodeThreadIO, writeFileSync: () => { throw Object.assign(new Error('ENOENT: gone again'), { code: 'ENOENT' }); } });
    expect(() => writer.write('g/index.json', Buffer.from('x'))).toThrow(`cannot write ${path.join(temp.path, 'g/index.json')}: ENOENT: gone again`);
    expect(fs.existsSync(path.join(temp.path, 'g'))).toBe(true);
  });
});
