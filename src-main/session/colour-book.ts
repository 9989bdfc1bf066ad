// Which colour each person gets in a host's session: the next one in turn, and for someone who rejoins (the same
// source address and name) the one they had, unless another participant has it now. Pure; knows nothing of
// connections.
import { participantColor } from './colors';

/** People remembered at most: the oldest is forgotten first. */
const MAX_REMEMBERED = 1_024;

export class ColourBook {
  /** Each person's colour index, oldest first. */
  private readonly byPerson = new Map<string, number>();
  private next = 1;

  /** The colour for `person` (their source address and name), given the colours participants have now. */
  colourFor(person: string, taken: ReadonlySet<number>): number {
    const before = this.byPerson.get(person);
    if (before !== undefined && !taken.has(participantColor(before)))
      return participantColor(before);
    const index = this.next++;
    this.byPerson.delete(person);
    this.byPerson.set(person, index);
    if (this.byPerson.size > MAX_REMEMBERED) {
      const oldest = this.byPerson.keys().next().value;
      if (oldest !== undefined) this.byPerson.delete(oldest);
    }
    return participantColor(index);
  }
}
