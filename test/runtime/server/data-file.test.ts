import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonFile } from '../../../templates/runtime/server/data-file.js';

const dir = mkdtempSync(join(tmpdir(), 'otm-data-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readJsonFile', () => {
  it('reads the ASCII files the generator writes', () => {
    const file = join(dir, 'ascii.json');
    writeFileSync(file, '{"title":"Caf\\u00e9"}\n');
    expect(readJsonFile(pathToFileURL(file))).toEqual({ title: 'Café' });
  });

  it('still reads a file edited by hand with UTF-8 characters', () => {
    const file = join(dir, 'utf8.json');
    writeFileSync(file, '{"title":"Café ✓ 😀"}', 'utf8');
    expect(readJsonFile(pathToFileURL(file))).toEqual({ title: 'Café ✓ 😀' });
  });
});
