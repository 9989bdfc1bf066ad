// Test child: what `ghostboard discover --seconds N` prints (cli/discover.ts), each line stamped with `ms`
// since browsing began. Runs inside a test namespace.
import { discover } from '../../src-main/cli/discover';

const seconds = Number(process.argv[2] ?? '3');
const start = performance.now();
void discover(seconds, (e) => {
  process.stdout.write(`${JSON.stringify({ ...e, ms: Math.round(performance.now() - start) })}\n`);
});
