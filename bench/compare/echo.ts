// Harness calibration: echoes each stdin line back as an event, so the compare bench can measure what its own
// pipes (command in, event out) add to every latency it reports. Knows nothing of any stack.
import { emit, readCommands } from './contract';

readCommands(
  (c) => emit({ ev: 'echo', ...c }),
  () => process.exit(0),
);
