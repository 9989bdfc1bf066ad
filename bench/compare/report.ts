// Markdown tables, the targets and chart specs for the compare bench's results. Pure; knows nothing of
// how the runs were made.
import type { BarChart } from '../plot';
import type { RunResult } from './figures';
import { round1 } from './figures';

const STACK_LABEL: Record<string, string> = {
  ghostboard: 'Ghostboard (UDP)',
  'ghostboard-lan': 'Ghostboard, --rate lan',
  yjs: 'Yjs + y-websocket',
  socketio: 'socket.io (Excalidraw)',
};

const row = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;
const head = (cells: readonly string[]): string =>
  [row(cells), row(cells.map(() => '---'))].join('\n');

const stackLabel = (s: string): string =>
  STACK_LABEL[s] ?? (s.startsWith('ghostboard@') ? `Ghostboard, --rate ${s.slice(11)}` : s);

function find(rs: readonly RunResult[], stack: string, cond: string): RunResult | undefined {
  return rs.find((r) => r.stack === stack && r.condition === cond);
}

function targets(rs: readonly RunResult[]): string[] {
  const out: string[] = [];
  const verdict = (ok: boolean): string => (ok ? '**met**' : '**missed**');
  for (const cond of ['loss0', 'loss5', 'cap64']) {
    const gb = find(rs, 'ghostboard', cond)?.summary;
    const base = ['yjs', 'socketio']
      .map((s) => find(rs, s, cond)?.summary)
      .filter((x) => x !== undefined);
    if (!gb || base.length === 0) continue;
    const cheaper = Math.min(...base.map((b) => b.totalKbpsPerClient));
    const ratio = round1(cheaper / gb.totalKbpsPerClient);
    out.push(
      `- ${cond}: bytes per client, the cheaper TCP stack ÷ Ghostboard = ${cheaper} ÷ ${gb.totalKbpsPerClient} kbit/s = ` +
        `**${ratio}×** (target ≥ 8×: ${verdict(ratio >= 8)})`,
    );
  }
  const gb5 = find(rs, 'ghostboard', 'loss5')?.summary;
  const tcp5 = ['yjs', 'socketio'].map((s) => find(rs, s, 'loss5')?.summary);
  const best = Math.min(...tcp5.map((t) => t?.pointerExcess.p99 ?? Infinity));
  if (gb5 && Number.isFinite(best)) {
    const third = round1(best / 3);
    out.push(
      `- loss5: Ghostboard pointer p99 excess ${gb5.pointerExcess.p99} ms vs ⅓ of the better TCP stack's ` +
        `${best} ms = ${third} ms (${verdict(gb5.pointerExcess.p99 <= third)})`,
      `- loss5: Ghostboard's largest pointer gap ${gb5.maxGapMs} ms (target ≤ 100 ms: ${verdict(gb5.maxGapMs <= 100)})`,
    );
  }
  const gb0 = find(rs, 'ghostboard', 'loss0')?.summary;
  if (gb0) {
    out.push(
      `- loss0: Ghostboard pointer p50 excess ${gb0.pointerExcess.p50} ms (target ≤ 10 ms: ${verdict(gb0.pointerExcess.p50 <= 10)})`,
    );
  }
  return out;
}

/** Issue 23's badnet goals for Ghostboard (default rate): chat p95 ≤ 1 s, no chat lost, the nearest pointer ≥ 10 Hz, drags land. */
export const BADNET_LIMITS = { chatP95Ms: 1000, chatMissing: 0, nearestPointerHz: 10 } as const;

export interface Target {
  readonly limit: number | string;
  readonly value: number | string;
  readonly met: boolean;
}

/** The targets the returned JSON carries (only for conditions that ran). */
export function compareTargets(rs: readonly RunResult[]): Record<string, Target> {
  const out: Record<string, Target> = {};
  const gb = find(rs, 'ghostboard', 'badnet')?.summary;
  if (gb) {
    out.badnetChatP95Ms = {
      limit: BADNET_LIMITS.chatP95Ms,
      value: gb.chatP95,
      met: gb.chatP95 <= BADNET_LIMITS.chatP95Ms,
    };
    out.badnetChatMissing = {
      limit: BADNET_LIMITS.chatMissing,
      value: gb.chatMissing,
      met: gb.chatMissing <= BADNET_LIMITS.chatMissing,
    };
    out.badnetNearestPointerHz = {
      limit: BADNET_LIMITS.nearestPointerHz,
      value: gb.nearestPointerHz,
      met: gb.nearestPointerHz >= BADNET_LIMITS.nearestPointerHz,
    };
    out.badnetFinalPositions = {
      limit: 'all',
      value: gb.finalCorrect,
      met: gb.finalCorrect.split('/')[0] === gb.finalCorrect.split('/')[1],
    };
  }
  return out;
}

const queueCell = (s: RunResult['summary']): string =>
  s.queueWait
    ? `${s.queueWait.up.p50} / ${s.queueWait.up.p95} · ${s.queueWait.down.p50} / ${s.queueWait.down.p95}`
    : '–';

export function compareTables(rs: readonly RunResult[]): string {
  const lines: string[] = [
    '### Summary (per client means; latencies pooled over all receivers)',
    '',
  ];
  lines.push(
    head([
      'condition',
      'stack',
      'up kbit/s',
      'down kbit/s',
      'pointer Hz seen',
      'pointer p50 / p95 / p99 ms',
      'excess p50 / p95 / p99 ms',
      'max gap ms',
      'chat p95 ms',
      'drops seen',
      'drop seen p95 ms',
      'final positions',
    ]),
  );
  for (const r of rs) {
    const s = r.summary;
    lines.push(
      row([
        r.condition,
        stackLabel(r.stack),
        s.upKbps,
        s.downKbps,
        s.pointerHz,
        `${s.pointer.p50} / ${s.pointer.p95} / ${s.pointer.p99}`,
        `${s.pointerExcess.p50} / ${s.pointerExcess.p95} / ${s.pointerExcess.p99}`,
        s.maxGapMs,
        s.chatP95,
        `${s.dropsSeenPct} %`,
        s.dropSeenP95,
        s.finalCorrect,
      ]),
    );
  }
  const starved = rs.filter((r) => r.summary.queueWait !== undefined);
  if (starved.length > 0) {
    lines.push(
      '',
      '### Capped links: chat, the nearest pointer and the bottleneck queue',
      '',
      "Chat one way, sender to every other user; the nearest pointer is each receiver's best-served remote",
      "pointer (the lowest over receivers); queue wait is how long datagrams waited in the router's bottleneck",
      'queue (5 ms buckets, up = user → server).',
      '',
      head([
        'condition',
        'stack',
        'chat p50 / p95 ms',
        'chat lines missing',
        'nearest pointer Hz',
        'queue wait up p50 / p95 · down p50 / p95 ms',
        'final positions',
      ]),
    );
    for (const r of starved) {
      const s = r.summary;
      lines.push(
        row([
          r.condition,
          stackLabel(r.stack),
          `${s.chatP50} / ${s.chatP95}`,
          s.chatMissing,
          s.nearestPointerHz,
          queueCell(s),
          s.finalCorrect,
        ]),
      );
    }
  }
  const goals = Object.entries(compareTargets(rs)).map(
    ([k, t]) => `- ${k}: ${t.value} (limit ${t.limit}: ${t.met ? '**met**' : '**missed**'})`,
  );
  lines.push('', '### Targets', '', ...targets(rs), ...goals, '', '### Per client', '');
  lines.push(
    head([
      'condition',
      'stack',
      'user',
      'up kbit/s',
      'down kbit/s',
      'pointer Hz',
      'p50 / p95 / p99 ms',
      'max gap ms',
      'chat p95 ms',
      'drops seen',
      'final ok',
    ]),
  );
  for (const r of rs) {
    for (const c of r.clients) {
      lines.push(
        row([
          r.condition,
          r.stack,
          c.user,
          c.upKbps,
          c.downKbps,
          c.pointerHz,
          `${c.pointer.p50} / ${c.pointer.p95} / ${c.pointer.p99}`,
          c.maxGapMs,
          c.chatP95,
          c.dropsSeen,
          c.finalCorrect ? 'yes' : 'no',
        ]),
      );
    }
  }
  const split = rs.filter((r) => r.summary.hops !== undefined);
  if (split.length > 0) {
    lines.push(
      '',
      "### Where a relayed pointer's time goes (stacks whose relay reports what it relays)",
      '',
      'Excess over one 40 ms link, sender → relay (the relay printing it) and relay → receiver.',
      '',
      head([
        'condition',
        'stack',
        'sender → relay p50 / p95 / p99 ms',
        'relay → receiver p50 / p95 / p99 ms',
      ]),
    );
    for (const r of split) {
      const h = r.summary.hops;
      if (h === undefined) continue;
      lines.push(
        row([
          r.condition,
          r.stack,
          `${h.up.p50} / ${h.up.p95} / ${h.up.p99}`,
          `${h.down.p50} / ${h.down.p95} / ${h.down.p99}`,
        ]),
      );
    }
  }
  lines.push(
    '',
    '### Router counters and the harness (whole measured window, all clients)',
    '',
    'Latencies and gaps above are timed when the receiving process emitted each event; the last column times the',
    "same updates when the bench read them (their pipe and the bench's own event loop added).",
    '',
  );
  lines.push(
    head([
      'condition',
      'stack',
      'lost up',
      'lost down',
      'queue drops up',
      'queue drops down',
      'load1',
      'bench loop delay p99 / max ms',
      'as read by the bench: excess p50 / p99 ms · max gap ms',
    ]),
  );
  for (const r of rs) {
    const x = r.router;
    const loop = r.benchLoopDelayMs;
    lines.push(
      row([
        r.condition,
        r.stack,
        x.lostUp,
        x.lostDown,
        x.queueDropsUp,
        x.queueDropsDown,
        r.load1,
        loop ? `${loop.p99} / ${loop.max}` : '–',
        `${r.summary.asRead.pointerExcess.p50} / ${r.summary.asRead.pointerExcess.p99} · ${r.summary.asRead.maxGapMs}`,
      ]),
    );
  }
  return lines.join('\n') + '\n';
}

export function compareCharts(rs: readonly RunResult[]): BarChart[] {
  const conds = [...new Set(rs.map((r) => r.condition))];
  const stacks = [...new Set(rs.map((r) => r.stack))];
  const series = (f: (r: RunResult) => number): BarChart['series'] =>
    stacks.map((s) => ({
      name: stackLabel(s),
      values: conds.map((c) => {
        const r = find(rs, s, c);
        return r ? f(r) : null;
      }),
    }));
  return [
    {
      file: 'compare-kbps',
      title: 'On-wire kbit/s per client (up + down), 4 users',
      yLabel: 'kbit/s (log)',
      groups: conds,
      series: series((r) => r.summary.totalKbpsPerClient),
      log: true,
    },
    {
      file: 'compare-p95',
      title: 'Pointer latency p95, excess over the 80 ms path',
      yLabel: 'ms (log)',
      groups: conds,
      series: series((r) => Math.max(0.1, r.summary.pointerExcess.p95)),
      log: true,
    },
    {
      file: 'compare-p99',
      title: 'Pointer latency p99, excess over the 80 ms path',
      yLabel: 'ms (log)',
      groups: conds,
      series: series((r) => Math.max(0.1, r.summary.pointerExcess.p99)),
      log: true,
    },
    {
      file: 'compare-gap',
      title: 'Largest gap between pointer updates seen',
      yLabel: 'ms (log)',
      groups: conds,
      series: series((r) => r.summary.maxGapMs),
      log: true,
      refs: [{ value: 100, label: 'target 100 ms (Ghostboard at 5 %)' }],
    },
  ];
}
