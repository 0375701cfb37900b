// The JSX runtime MDX runs with on the server: instead of a virtual DOM, every element becomes an HTML
// string at once. Text from the .mdx file is escaped; a component's string result is trusted HTML.
import { escapeHtml } from './escape-html';

/** Already-rendered HTML, as opposed to text that still needs escaping. */
export class Html {
  constructor(readonly value: string) {}
}

/**
 * What a component of the `documentation.components` module receives: the props written in the .mdx
 * file, with `children` already rendered to HTML. It returns HTML (escape the props you write into it).
 *
 * @example
 * export const Badge = ({ children }: ComponentProps) => `<span class="badge">${children}</span>`;
 */
export type ComponentProps = Record<string, unknown> & { children: string };
export type HtmlComponent = (props: ComponentProps) => unknown;

export const Fragment = Symbol('Fragment');

const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const TAG_NAME = /^[a-zA-Z][a-zA-Z0-9-]*$/;
const ATTRIBUTE_NAME = /^[a-zA-Z_:][a-zA-Z0-9_.:-]*$/;
const REACT_ATTRIBUTE_NAMES: Record<string, string> = { className: 'class', htmlFor: 'for' };

type Props = Record<string, unknown> & { children?: unknown };

/** The `jsx`/`jsxs` function MDX calls for every element. */
export function jsx(type: string | symbol | HtmlComponent, props: Props): Html {
  if (type === Fragment) return new Html(renderChildren(props.children));
  if (typeof type === 'function') {
    const { children, ...rest } = props;
    return componentResult(type({ ...rest, children: renderChildren(children) }));
  }
  if (typeof type !== 'string' || !TAG_NAME.test(type)) throw new Error(`cannot render the element ${String(type)}`);
  const attributes = renderAttributes(props);
  if (VOID_ELEMENTS.has(type)) return new Html(`<${type}${attributes}>`);
  return new Html(`<${type}${attributes}>${renderChildren(props.children)}</${type}>`);
}

/** A component returns trusted HTML: a string, an Html value, nothing, or a list of those. */
export function componentResult(result: unknown): Html {
  if (result instanceof Html) return result;
  if (result === null || result === undefined || typeof result === 'boolean') return new Html('');
  if (Array.isArray(result)) return new Html(result.map((item) => componentResult(item).value).join(''));
  return new Html(String(result));
}

function renderChildren(children: unknown): string {
  if (children === null || children === undefined || typeof children === 'boolean') return '';
  if (children instanceof Html) return children.value;
  if (Array.isArray(children)) return children.map(renderChildren).join('');
  return escapeHtml(String(children));
}

function renderAttributes(props: Props): string {
  let attributes = '';
  for (const [key, value] of Object.entries(props)) {
    if (key === 'children' || value === null || value === undefined || value === false || typeof value === 'function') continue;
    const name = REACT_ATTRIBUTE_NAMES[key] ?? key;
    if (!ATTRIBUTE_NAME.test(name)) continue;
    if (value === true) attributes += ` ${name}`;
    else if (name === 'style' && typeof value === 'object') attributes += ` style="${escapeHtml(styleText(value as Record<string, unknown>))}"`;
    else if (typeof value !== 'object') attributes += ` ${name}="${escapeHtml(String(value))}"`;
  }
  return attributes;
}

// `{ fontSize: '2em' }` → `font-size: 2em`, as React writes a style object.
function styleText(style: Record<string, unknown>): string {
  return Object.entries(style)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([property, value]) => `${property.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}: ${String(value)}`)
    .join('; ');
}
