/**
 * A strict XML 1.0 parser for the reports tests read (saxes, pinned in devDependencies):
 * every well-formedness error (a disallowed character, `]]>` in text, an undefined
 * entity, a bad tag), and each element with its attributes and text as a parser sees them.
 */
import { SaxesParser } from 'saxes';

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  text: string;
}

/**
 * @example parseXml('<a b="&amp;">x</a>') // { errors: [], elements: [{ name: 'a', attributes: { b: '&' }, text: 'x' }] }
 */
export function parseXml(xml: string): { errors: string[]; elements: XmlElement[] } {
  const parser = new SaxesParser();
  const errors: string[] = [];
  const elements: XmlElement[] = [];
  const open: XmlElement[] = [];
  parser.on('error', (e) => errors.push(e.message));
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, text: '' };
    elements.push(element);
    open.push(element);
  });
  parser.on('text', (text) => {
    if (open.length > 0) open[open.length - 1].text += text;
  });
  parser.on('closetag', () => open.pop());
  parser.write(xml).close();
  return { errors, elements };
}
