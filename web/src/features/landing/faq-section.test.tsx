import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { FaqSection } from './faq-section';
import { deadlineAnswer, type DeadlineFacts } from './public-texts';

afterEach(cleanup);

const trigger = (question: string) => screen.getByRole('button', { name: question });
const expanded = (question: string) => trigger(question).getAttribute('aria-expanded') === 'true';

describe('FaqSection', () => {
  it('is the section with the anchor id faq', () => {
    const { container } = render(<FaqSection deadlineMonth="März 2026" />);
    expect(container.querySelector('section#faq')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Häufige Fragen' })).toBeTruthy();
  });

  it('keeps one answer open at a time and closes it again on a second click', async () => {
    render(<FaqSection deadlineMonth="März 2026" />);
    const user = userEvent.setup();
    const status = 'Welchen Status kann meine Bewerbung haben?';
    const deadline = 'Bis wann kann ich mich bewerben?';

    expect(screen.queryAllByRole('button', { expanded: true })).toHaveLength(0);

    await user.click(trigger(status));
    expect(expanded(status)).toBe(true);
    expect(screen.getByText(/zunächst in Prüfung.*Einladung.*Warteliste.*Absage/)).toBeTruthy();

    await user.click(trigger(deadline));
    expect(expanded(deadline)).toBe(true);
    expect(expanded(status)).toBe(false);
    expect(screen.getAllByRole('button', { expanded: true })).toHaveLength(1);
    expect(screen.getByText(/spätestens bis März 2026\. Die Plätze sind begrenzt/)).toBeTruthy();

    await user.click(trigger(deadline));
    expect(expanded(deadline)).toBe(false);
    expect(screen.queryAllByRole('button', { expanded: true })).toHaveLength(0);
  });

  it('answers every question the spec lists', async () => {
    render(<FaqSection deadlineMonth="März 2026" />);
    const user = userEvent.setup();
    const answers: Record<string, RegExp> = {
      'Was passiert, wenn mein Fahrzeug angenommen wird?': /Einladung.*bestätige sie/,
      'Welche Fotos und Daten brauche ich für die Bewerbung?':
        /mindestens drei hochwertige Fotos.*PS.*0 auf 100 km\/h.*Höchstgeschwindigkeit/,
      'Welche Einwilligungen muss ich geben?': /Website, in den sozialen Medien und für das Auto-Quartett/,
      'Welche Fahrzeuge können teilnehmen?': /individuell modifiziert.*gesetzlichen Anforderungen/,
      'Kostet die Bewerbung etwas?': /kostenlos.*später Gebühren/,
      'Kann ich meine Fahrzeugdaten nachträglich ändern?': /Bis zur finalen Freigabe für das Auto-Quartett/,
    };
    for (const [question, answer] of Object.entries(answers)) {
      await user.click(trigger(question));
      expect(screen.getByText(answer)).toBeTruthy();
    }
  });

  it("answers 'Bis wann kann ich mich bewerben?' in the edition's phase", async () => {
    const facts: Omit<DeadlineFacts, 'phase'> = {
      editionName: 'Schlosstreffen 2027',
      deadlineMonth: 'März 2027',
      deadlineDate: '31. März 2027',
      opensOn: '15. Januar 2027',
    };
    const answers = {
      preparation: deadlineAnswer({ ...facts, opensOn: null, phase: 'preparation' }),
      scheduled: deadlineAnswer({ ...facts, phase: 'scheduled' }),
      open: deadlineAnswer({ ...facts, phase: 'open' }),
      closed: deadlineAnswer({ ...facts, phase: 'closed' }),
      meetingDay: deadlineAnswer({ ...facts, phase: 'meetingDay' }),
      over: deadlineAnswer({ ...facts, phase: 'over' }),
    };
    expect(answers.preparation).toMatch(/^Die Bewerbung für Schlosstreffen 2027 öffnet bald; .*im März 2027/);
    expect(answers.scheduled).toMatch(/^Die Bewerbung für Schlosstreffen 2027 öffnet am 15\. Januar 2027\./);
    expect(answers.open).toMatch(/^Bewirb dich spätestens bis März 2027\./);
    expect(answers.closed).toMatch(
      /^Der Bewerbungsschluss für Schlosstreffen 2027 war am 31\. März 2027; neue Bewerbungen sind nicht mehr möglich\./,
    );
    expect(answers.meetingDay).toBe(answers.closed);
    expect(answers.over).toMatch(/^Das Schlosstreffen 2027 ist vorbei\. /);

    render(<FaqSection deadlineMonth="März 2027" deadlineAnswer={answers.closed} />);
    await userEvent.setup().click(trigger('Bis wann kann ich mich bewerben?'));
    expect(screen.getByText(answers.closed)).toBeTruthy();
  });
});
