import { describe, expect, it } from 'vitest';
import { participantColor } from './colors';
import { ColourBook } from './colour-book';

describe('ColourBook', () => {
  it('gives each new person the next colour in turn', () => {
    const book = new ColourBook();
    expect(book.colourFor('a\nAna', new Set())).toBe(participantColor(1));
    expect(book.colourFor('b\nBo', new Set())).toBe(participantColor(2));
  });

  it('gives someone who rejoins their colour back, unless another participant has it now', () => {
    const book = new ColourBook();
    const ana = book.colourFor('a\nAna', new Set());
    book.colourFor('b\nBo', new Set());
    expect(book.colourFor('a\nAna', new Set([participantColor(2)]))).toBe(ana);
    const taken = book.colourFor('a\nAna', new Set([ana]));
    expect(taken).not.toBe(ana);
    // Remembered with the new colour from then on.
    expect(book.colourFor('a\nAna', new Set())).toBe(taken);
  });

  it('forgets the oldest person past 1,024 remembered', () => {
    const book = new ColourBook();
    const first = book.colourFor('p0', new Set());
    for (let i = 1; i <= 1024; i++) book.colourFor(`p${i}`, new Set());
    // p0 was forgotten (a new colour), and remembering it again forgets p1, the oldest then.
    expect(book.colourFor('p0', new Set())).not.toBe(first);
    expect(book.colourFor('p2', new Set())).toBe(participantColor(3));
    expect(book.colourFor('p1', new Set())).not.toBe(participantColor(2));
  });
});
