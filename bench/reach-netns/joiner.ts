// The `ghostboard` command as bin/ghostboard.js runs it, plus one `{"ev":"loaded"}` line once its modules are in, so
// the reach-netns benchmark can tell process start-up from the join itself. Knows nothing of what it runs.
//
// Run as `node --import tsx bench/reach-netns/joiner.ts join LINK ...` (tsx's loader, as the bin script registers).

/** CLOCK_MONOTONIC in ms, the clock of every `t` the command prints (src-main/cli/script.ts). */
// A module (top-level await), though it exports nothing.
export {};

const clockMs = (): number => Number(process.hrtime.bigint()) / 1e6;

const { main } = await import('../../src-main/cli/main');
process.stdout.write(JSON.stringify({ ev: 'loaded', t: clockMs() }) + '\n');
try {
  await main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`ghostboard: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
