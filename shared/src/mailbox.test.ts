import { describe, expect, it } from 'vitest';
import { mailboxOf } from './mailbox.js';

describe('the mailbox of an address', () => {
  it('is lower case and trimmed', () => {
    expect(mailboxOf('  Anna.Schmidt@Example.DE ')).toBe('anna.schmidt@example.de');
  });

  it('drops the sub-address tag for every domain', () => {
    expect(mailboxOf('name+1@example.de')).toBe('name@example.de');
    expect(mailboxOf('name+publikum+2@posteo.de')).toBe('name@posteo.de');
    expect(mailboxOf('name+x@gmail.com')).toBe('name@gmail.com');
  });

  it('ignores the dots of a Gmail local part and reads googlemail.com as gmail.com', () => {
    expect(mailboxOf('n.a.m.e@gmail.com')).toBe('name@gmail.com');
    expect(mailboxOf('N.a.me+Auto@GoogleMail.com')).toBe('name@gmail.com');
    // Elsewhere a dot is part of the name.
    expect(mailboxOf('n.a.m.e@example.de')).toBe('n.a.m.e@example.de');
  });

  it('reads an international domain by its ASCII form', () => {
    expect(mailboxOf('Max@Müller.de')).toBe('max@xn--mller-kva.de');
    expect(mailboxOf('max+tag@xn--mller-kva.de')).toBe('max@xn--mller-kva.de');
  });

  it('keeps what is no address as it is (lower case)', () => {
    expect(mailboxOf('Kein-At')).toBe('kein-at');
    expect(mailboxOf('+nur-tag@example.de')).toBe('+nur-tag@example.de');
  });
});
