// The state-node base: transitions by name carry their input, exits run before entries (innermost first),
// the active path reads as names, and what an exiting state sets off reaches no state.
import { describe, expect, it } from 'vitest';
import { at } from './testing/fake-editor';
import { ParentNode, StateNode } from './state-node';

const log: string[] = [];

class Leaf extends StateNode {
  constructor(readonly id: string) {
    super();
  }
  override onEnter(): void {
    log.push(`enter ${this.id}`);
  }
  override onExit(): void {
    log.push(`exit ${this.id}`);
  }
  override onPointerUp(): void {
    log.push(`up ${this.id}`);
  }
}

class Counting extends StateNode<number> {
  readonly id = 'counting';
  override onEnter(n: number): void {
    log.push(`enter counting ${n}`);
  }
}

interface Inner {
  readonly a: Leaf;
  readonly counting: Counting;
}

class Machine extends ParentNode<Inner> {
  readonly id = 'm';
  readonly children = { a: new Leaf('a'), counting: new Counting() };
  protected readonly initial = 'a';
}

interface Outer {
  readonly m: Machine;
  readonly b: Leaf;
}

class Root extends ParentNode<Outer> {
  readonly id = 'root';
  readonly children = { m: new Machine(), b: new Leaf('b') };
  protected readonly initial = 'm';
}

describe('StateNode', () => {
  it('enters initial states down the tree and switches by name, exiting innermost first', () => {
    log.length = 0;
    const root = new Root();
    root.enter();
    expect(root.path()).toBe('root.m.a');
    root.children.m.transition('counting', 3);
    expect(root.path()).toBe('root.m.counting');
    root.transition('b');
    expect(root.path()).toBe('root.b');
    expect(log).toEqual(['enter a', 'exit a', 'enter counting 3', 'enter b']);
  });

  it('routes events to the active leaf only', () => {
    log.length = 0;
    const root = new Root();
    root.enter();
    root.handle({ type: 'pointerUp' });
    root.handle({ type: 'pointerDown', pointer: at(0, 0) });
    expect(log).toEqual(['enter a', 'up a']);
    root.exit();
    expect(root.current).toBeNull();
    root.handle({ type: 'pointerUp' });
    expect(log).toEqual(['enter a', 'up a', 'exit a']);
  });

  it('drops events a state sets off while it exits', () => {
    log.length = 0;
    const root = new Root();
    root.enter();
    const a = root.children.m.children.a;
    a.onExit = () => {
      log.push('exit a');
      root.handle({ type: 'pointerUp' });
    };
    root.transition('b');
    expect(log).toEqual(['enter a', 'exit a', 'enter b']);
  });
});
