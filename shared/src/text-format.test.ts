import { describe, expect, it } from 'vitest';
import {
  allowedLinkTarget,
  deadlineMonthOf,
  formatText,
  renderPublicTexts,
  textBlocks,
} from './text-format.js';

describe('the public texts format', () => {
  it('splits paragraphs at blank lines, keeps single line breaks, and makes lines with "- " a list', () => {
    expect(textBlocks('Erster Absatz\nzweite Zeile\n\n  \n- eins\n-  zwei\nDanach\n\n\nLetzter')).toEqual([
      { list: false, lines: ['Erster Absatz', 'zweite Zeile'] },
      { list: true, items: ['eins', 'zwei'] },
      { list: false, lines: ['Danach'] },
      { list: false, lines: ['Letzter'] },
    ]);
    expect(formatText('Eins\r\nZwei\r\n\r\n- a\n- b\n\nDrei')).toBe(
      '<p>Eins<br>Zwei</p><ul><li>a</li><li>b</li></ul><p>Drei</p>',
    );
    // '-' without a space, or '**' at the start of a line, is no list.
    expect(formatText('-5 °C\n**fett** bleibt')).toBe('<p>-5 °C<br><strong>fett</strong> bleibt</p>');
  });

  it('links to http(s) addresses and pages of the site only; any other target stays text', () => {
    expect(
      formatText('Mit **festem Schuhwerk** zum [Schloss](https://schloss.example/anfahrt?a=1&b=2).'),
    ).toBe(
      '<p>Mit <strong>festem Schuhwerk</strong> zum ' +
        '<a href="https://schloss.example/anfahrt?a=1&amp;b=2" rel="noopener noreferrer">Schloss</a>.</p>',
    );
    expect(formatText('Siehe [Datenschutz](/datenschutz#kontakt).')).toBe(
      '<p>Siehe <a href="/datenschutz#kontakt">Datenschutz</a>.</p>',
    );
    for (const target of [
      'javascript:alert%281%29',
      'JaVaScRiPt:x',
      '//fremd.example',
      '/\\fremd.example',
      'data:text/html,x',
      'mailto:a@b.de',
      'https:/x',
      'seite',
    ]) {
      expect(allowedLinkTarget(target)).toBe(false);
      expect(formatText(`Hier [klicken](${target}) bitte`)).toBe('<p>Hier klicken bitte</p>');
    }
    // Markers that are not closed are text.
    expect(formatText('2 ** 3 und [offen](')).toBe('<p>2 ** 3 und [offen](</p>');
  });

  it('escapes everything of the text: no HTML of it reaches a page', () => {
    const html = formatText(
      "<script>alert(1)</script> & <img src=x onerror=alert(1)>\n\n- **<b>x</b>**\n- [<i>a</i>](https://a.example/\"onmouseover='x')",
    );
    expect(html).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;</p>' +
        '<ul><li><strong>&lt;b&gt;x&lt;/b&gt;</strong></li>' +
        '<li><a href="https://a.example/&quot;onmouseover=&#39;x&#39;" rel="noopener noreferrer">&lt;i&gt;a&lt;/i&gt;</a></li></ul>',
    );
    // Only these elements are ever written.
    const tags = new Set([...html.matchAll(/<\/?([a-z]+)/g)].map((m) => m[1]));
    expect([...tags].every((tag) => ['p', 'br', 'ul', 'li', 'strong', 'a'].includes(tag!))).toBe(true);
  });

  it('renders the formatted parts for the site config, fills in the deadline, and leaves the defaults and questions alone', () => {
    expect(
      renderPublicTexts(
        {
          introduction: null,
          eventDetails: 'A & **B**',
          faq: [
            { question: 'Was ist <neu>?', answer: 'Das **hier**.' },
            {
              question: 'Bis {Bewerbungsschluss}?',
              answer: 'Bis **{Bewerbungsschluss}**, auch {Bewerbungsschluss}.',
            },
          ],
        },
        deadlineMonthOf('2027-03-31'),
      ),
    ).toEqual({
      introduction: null,
      eventDetails: '<p>A &amp; <strong>B</strong></p>',
      faq: [
        { question: 'Was ist <neu>?', answer: '<p>Das <strong>hier</strong>.</p>' },
        { question: 'Bis März 2027?', answer: '<p>Bis <strong>März 2027</strong>, auch März 2027.</p>' },
      ],
    });
    expect(renderPublicTexts({ introduction: null, eventDetails: null, faq: null }, 'März 2027')).toEqual({
      introduction: null,
      eventDetails: null,
      faq: null,
    });
  });
});
