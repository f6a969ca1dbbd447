import { SaxesParser } from 'saxes';

/** An element by its local name (the namespace prefix dropped), its attributes and its own text. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** The document is not well-formed XML (saxes' message, where it stopped). */
export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'XmlSyntaxError';
  }
}

/** The document declares a DTD; statements never do, and its entities are not expanded. */
export class XmlDoctypeError extends Error {}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * Reads a document with the strict streaming parser saxes, building a light tree of elements by
 * local name. `onClose` sees each element complete, with its ancestors; it returns whether the
 * element stays in its parent, so a reader can hand over large repeated elements and drop them.
 * Elements named in `skip` are passed over with all they contain.
 */
export function parseXml(
  text: string,
  handlers: {
    onOpen?: (element: XmlElement, ancestors: readonly XmlElement[]) => void;
    onClose: (element: XmlElement, ancestors: readonly XmlElement[]) => boolean;
    skip?: ReadonlySet<string>;
  },
): void {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: XmlElement[] = [];
  // Depth within a skipped element; 0 outside one.
  let skipping = 0;
  parser.on('error', (error) => {
    throw new XmlSyntaxError(error.message, parser.line, parser.column);
  });
  parser.on('doctype', () => {
    throw new XmlDoctypeError('doctype');
  });
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (skipping > 0 || handlers.skip?.has(name)) {
      skipping++;
      return;
    }
    const element: XmlElement = { name, attributes: {}, children: [], text: '' };
    for (const [name, value] of Object.entries(tag.attributes)) element.attributes[localName(name)] = value;
    handlers.onOpen?.(element, stack);
    stack.push(element);
  });
  const addText = (text: string) => {
    const top = stack[stack.length - 1];
    if (top && skipping === 0) top.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    if (skipping > 0) {
      skipping--;
      return;
    }
    const element = stack.pop()!;
    const keep = handlers.onClose(element, stack);
    const parent = stack[stack.length - 1];
    if (keep && parent) parent.children.push(element);
  });
  parser.write(text).close();
}

export const child = (element: XmlElement | undefined, name: string): XmlElement | undefined =>
  element?.children.find((c) => c.name === name);

export const childrenNamed = (element: XmlElement | undefined, name: string): XmlElement[] =>
  element ? element.children.filter((c) => c.name === name) : [];

/** The first element along a path of local names ('RltdPties/Dbtr/Nm'). */
export function find(element: XmlElement | undefined, path: string): XmlElement | undefined {
  let current = element;
  for (const name of path.split('/')) {
    current = child(current, name);
    if (!current) return undefined;
  }
  return current;
}

/** Every element along a path, each step over all children of that name ('NtryDtls/TxDtls'). */
export function findAll(element: XmlElement | undefined, path: string): XmlElement[] {
  let level = element ? [element] : [];
  for (const name of path.split('/')) level = level.flatMap((e) => childrenNamed(e, name));
  return level;
}

/** An element's text, trimmed; null where it is missing or empty. */
export function textOf(element: XmlElement | undefined): string | null {
  const text = element?.text.trim();
  return text ? text : null;
}

/** The text at a path, trimmed; null where missing or empty. */
export const textAt = (element: XmlElement | undefined, path: string): string | null =>
  textOf(find(element, path));
