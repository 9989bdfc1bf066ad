// The scope pass alone: when it runs, the records it makes and lets go of, and the priorities it hands the line.
// Records are real; the line is a recording fake; time is a number.
import { describe, expect, it } from 'vitest';
import type { Shape } from '../testing/ghost-classes';
import { blankShape, SHAPE, testRegistry } from '../testing/ghost-classes';
import { GhostIdPool } from './ghost-ids';
import type { GhostRecord, RecordOwner } from './ghost-record';
import type { GhostScopeFn, ScopeLine } from './ghost-scope-pass';
import { MIN_PRIORITY, ScopePass } from './ghost-scope-pass';
import type { GhostSource } from './ghost-source';
import { GhostDomain } from './ghost-source';
import { GhostSendCounters } from './ghost-stats';

/** What the pass told the line and the owner, in order. */
type Call =
  | ['add', number, number]
  | ['setPriority', number, number]
  | ['prioritize', number, number]
  | ['queue', number]
  | ['reenter', number];

interface Setup {
  readonly pass: ScopePass;
  readonly domain: GhostDomain;
  readonly counters: GhostSendCounters;
  readonly ids: GhostIdPool;
  readonly calls: Call[];
  /** What the scope callback puts in scope, with priorities. */
  readonly inScope: Map<GhostSource, number>;
  /** Scope callback calls so far. */
  scoped: number;
}

function setup(o: { intervalMs?: number; msPerObject?: number; maxGhosts?: number } = {}): Setup {
  const domain = new GhostDomain(testRegistry());
  const counters = new GhostSendCounters();
  const ids = new GhostIdPool(o.maxGhosts ?? 64);
  const calls: Call[] = [];
  const line: ScopeLine = {
    add: (id, p) => calls.push(['add', id, p]),
    setPriority: (id, p) => calls.push(['setPriority', id, p]),
    prioritize: (rec, p) => calls.push(['prioritize', rec.id, p]),
  };
  const owner: RecordOwner = {
    counters,
    queue: (rec) => calls.push(['queue', rec.id]),
    queueUrgent: () => undefined,
    release: (rec) => {
      s.pass.release(rec);
    },
  };
  const scope: GhostScopeFn = (_now, sink) => {
    s.scoped++;
    for (const [source, p] of s.inScope) sink.add(source, p);
  };
  const s: Setup = {
    pass: new ScopePass(
      { domain, scope, scopeIntervalMs: o.intervalMs, scopeMsPerObject: o.msPerObject },
      owner,
      ids,
      line,
    ),
    domain,
    counters,
    ids,
    calls,
    inScope: new Map(),
    scoped: 0,
  };
  return s;
}

function shape(s: Setup, key: number): GhostSource<Shape> {
  return s.domain.add(SHAPE, { ...blankShape(), key });
}

function recordOf(s: Setup, source: GhostSource): GhostRecord {
  const rec = s.pass.recordOf(source);
  if (rec === undefined) throw new Error('no record');
  return rec;
}

describe('ScopePass', () => {
  it('runs at most once per instant and once per interval, unless invalidated', () => {
    const s = setup({ intervalMs: 50 });
    s.pass.maybeRun(0);
    s.pass.maybeRun(0);
    expect(s.scoped).toBe(1);
    expect(s.pass.nextAt()).toBe(50);
    s.pass.maybeRun(49);
    expect(s.scoped).toBe(1);
    s.pass.maybeRun(50);
    expect(s.scoped).toBe(2);
    s.pass.invalidate();
    s.pass.invalidate();
    s.pass.maybeRun(50); // still never twice at one instant
    s.pass.maybeRun(51);
    s.pass.maybeRun(52);
    expect(s.scoped).toBe(3);
    expect(s.counters.scopePasses).toBe(3);
  });

  it('admits one new object between passes, without a pass, and later passes keep it as any other', () => {
    const s = setup({ intervalMs: 50 });
    const a = shape(s, 1);
    s.inScope.set(a, 2);
    s.pass.maybeRun(0);
    const b = shape(s, 2);
    s.inScope.set(b, 5);
    s.pass.admit(b, 5);
    expect(s.scoped).toBe(1);
    expect(s.counters.scopePasses).toBe(1);
    expect(recordOf(s, b).wanted).toBe(true);
    expect(s.calls.slice(-3)).toEqual([
      ['add', 1, 5],
      ['queue', 1],
      ['prioritize', 1, 5],
    ]);
    s.pass.maybeRun(50);
    expect(s.scoped).toBe(2);
    expect(recordOf(s, b).wanted).toBe(true);
    expect(recordOf(s, a).wanted).toBe(true);
  });

  it('runs at once when the always-in-scope set changes, and scopes those objects at their priority', () => {
    const s = setup({ intervalMs: 50 });
    s.pass.maybeRun(0);
    const always = s.domain.add(
      SHAPE,
      { ...blankShape(), key: 9 },
      { always: true, alwaysPriority: 3 },
    );
    s.pass.maybeRun(1);
    expect(s.scoped).toBe(2);
    expect(s.calls).toEqual([
      ['add', 0, 3],
      ['queue', 0],
      ['prioritize', 0, 3],
    ]);
    expect(recordOf(s, always).source).toBe(always);
  });

  it('spaces passes out by msPerObject per record', () => {
    const s = setup({ intervalMs: 50, msPerObject: 1, maxGhosts: 256 });
    for (let i = 0; i < 120; i++) s.inScope.set(shape(s, i), 1);
    s.pass.maybeRun(0);
    expect(s.pass.nextAt()).toBe(120);
  });

  it('has no periodic pass without a scope function', () => {
    const domain = new GhostDomain(testRegistry());
    const owner: RecordOwner = {
      counters: new GhostSendCounters(),
      queue: () => undefined,
      queueUrgent: () => undefined,
      release: () => undefined,
    };
    const line: ScopeLine = {
      add: () => undefined,
      setPriority: () => undefined,
      prioritize: () => undefined,
    };
    const pass = new ScopePass({ domain }, owner, new GhostIdPool(4), line);
    pass.maybeRun(0);
    expect(pass.nextAt()).toBe(Infinity);
  });

  it('makes a record for an object new in scope: lowest free id, priority set before it is queued', () => {
    const s = setup();
    const a = shape(s, 1);
    const b = shape(s, 2);
    s.inScope.set(a, 5);
    s.inScope.set(b, 0); // clamped: its stride between turns must stay bounded
    s.pass.maybeRun(0);
    expect(s.calls).toEqual([
      ['add', 0, 5],
      ['queue', 0],
      ['prioritize', 0, 5],
      ['add', 1, MIN_PRIORITY],
      ['queue', 1],
      ['prioritize', 1, MIN_PRIORITY],
    ]);
    expect(recordOf(s, a).id).toBe(0);
    expect(a.observerCount).toBe(1); // the source tells the record of changes
    expect(s.ids.live).toBe(2);
  });

  it('lets an object out of scope leave: a live ghost is deleted, one never sent is released at once', () => {
    const s = setup();
    const live = shape(s, 1);
    const unsent = shape(s, 2);
    s.inScope.set(live, 1);
    s.inScope.set(unsent, 1);
    s.pass.maybeRun(0);
    recordOf(s, live).state = 'live';
    s.inScope.clear();
    s.pass.invalidate();
    s.pass.maybeRun(1);
    expect(recordOf(s, live).state).toBe('delete');
    expect(s.pass.recordOf(unsent)).toBeUndefined();
    expect(unsent.observerCount).toBe(0);
    expect(s.ids.live).toBe(1);
  });

  it('sets the priority of an object back in scope before it is queued again', () => {
    const s = setup();
    const a = shape(s, 1);
    s.inScope.set(a, 1);
    s.pass.maybeRun(0);
    const rec = recordOf(s, a);
    rec.state = 'live';
    rec.mask = SHAPE.maskOf('position');
    s.inScope.clear();
    s.pass.invalidate();
    s.pass.maybeRun(1);
    expect(rec.state).toBe('delete');
    s.calls.length = 0;
    s.inScope.set(a, 7);
    s.pass.invalidate();
    s.pass.maybeRun(2);
    expect(rec.state).toBe('live'); // the delete was not written yet: cancelled
    expect(rec.wanted).toBe(true);
    expect(s.calls).toEqual([
      ['setPriority', 0, 7],
      ['queue', 0], // its dirty groups
      ['prioritize', 0, 7],
    ]);
  });

  it('skips destroyed objects and counts the ones left out for want of an id', () => {
    const s = setup({ maxGhosts: 2 });
    const gone = shape(s, 0);
    gone.destroy();
    s.inScope.set(gone, 1);
    for (let i = 1; i <= 3; i++) s.inScope.set(shape(s, i), 1);
    s.pass.maybeRun(0);
    expect(s.pass.recordOf(gone)).toBeUndefined();
    expect(s.ids.live).toBe(2);
    expect(s.counters.idExhausted).toBe(1);
  });

  it('forgets every record on clear(): sources stop telling them of changes', () => {
    const s = setup();
    const a = shape(s, 1);
    s.inScope.set(a, 1);
    s.pass.maybeRun(0);
    s.pass.clear();
    expect(s.pass.recordOf(a)).toBeUndefined();
    expect(a.observerCount).toBe(0);
  });
});
