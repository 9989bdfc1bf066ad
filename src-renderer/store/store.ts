// A minimal observable store: one immutable state, a pure reducer, listeners. No framework, no DOM.
import { reduce } from './reduce-ui';
import type { Action, AppState } from './state';
import { INITIAL_STATE } from './state';

export class Store {
  private state: AppState;
  private readonly listeners = new Set<() => void>();

  constructor(initial: AppState = INITIAL_STATE) {
    this.state = initial;
  }

  readonly getState = (): AppState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly dispatch = (action: Action): void => {
    const next = reduce(this.state, action);
    if (next === this.state) return;
    this.state = next;
    for (const l of this.listeners) l();
  };
}
