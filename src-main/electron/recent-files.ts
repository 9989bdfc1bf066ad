// The Open Recent list (files): the last RECENT_MAX board files opened or saved, newest first, kept in the data
// dir as JSON. Reading treats the file as untrusted (bounded, typed; anything else reads as an empty list).
// Knows nothing of menus, dialogs or the core.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_PATH_CHARS } from '../../shared/api';

export const RECENT_MAX = 8;
export const RECENT_FILE = 'recent-files.json';
const MAX_RECENT_BYTES = 64 * 1024;

/** `path` first, once, at most RECENT_MAX in all. */
export function addRecent(list: readonly string[], path: string): string[] {
  return [path, ...list.filter((p) => p !== path)].slice(0, RECENT_MAX);
}

/** The list the text holds, or empty: only strings of a path's length, at most RECENT_MAX of them. */
export function parseRecent(text: string): string[] {
  if (text.length > MAX_RECENT_BYTES) return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  return data
    .filter((p): p is string => typeof p === 'string' && p !== '' && p.length <= MAX_PATH_CHARS)
    .slice(0, RECENT_MAX);
}

export function loadRecent(dataDir: string): string[] {
  try {
    return parseRecent(readFileSync(join(dataDir, RECENT_FILE), 'utf8'));
  } catch {
    return [];
  }
}

/** Best effort: a list that cannot be written is only a convenience lost. */
export function saveRecent(dataDir: string, list: readonly string[]): void {
  const file = join(dataDir, RECENT_FILE);
  try {
    writeFileSync(`${file}.tmp`, JSON.stringify(list));
    renameSync(`${file}.tmp`, file);
  } catch {
    // ignored: see above
  }
}
