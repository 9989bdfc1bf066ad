#!/usr/bin/env node
// Entry point of the `ghostboard` command: runs the TypeScript CLI through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src-main/cli/main.ts');
try {
  await main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`ghostboard: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
