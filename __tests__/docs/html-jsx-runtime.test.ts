// The JSX runtime MDX runs with: elements become HTML at once, text and attribute values are escaped,
// and a component's string result is taken as HTML.
import { componentResult, Fragment, Html, jsx } from '../../runtime/docs/html-jsx-runtime';

describe('the HTML JSX runtime', () => {
  it('renders elements with escaped text children', () => {
    const html = jsx('p', { children: ['1 < 2 & ', jsx('em', { children: '<b>bold?</b>' })] });
    expect(html).toBeInstanceOf(Html);
    expect(html.value).toBe('<p>1 &lt; 2 &amp; <em>&lt;b&gt;bold?&lt;/b&gt;</em></p>');
  });

  it('writes attributes escaped, maps className and htmlFor, and turns a style object into CSS', () => {
    const html = jsx('label', { className: 'a "b"', htmlFor: 'x', title: "it's <here>", style: { fontSize: '2em', marginTop: 0 }, children: 'L' });
    expect(html.value).toBe('<label class="a &quot;b&quot;" for="x" title="it&#39;s &lt;here&gt;" style="font-size: 2em; margin-top: 0">L</label>');
  });

  it('writes true as a bare attribute and drops false, null, functions, objects and invalid names', () => {
    const html = jsx('input', { disabled: true, hidden: false, value: null, onClick: () => 1, data: { a: 1 }, 'x"y': 'z' });
    expect(html.value).toBe('<input disabled>');
  });

  it('renders void elements without a closing tag and flattens fragments, numbers and nested arrays', () => {
    const html = jsx(Fragment, { children: [jsx('hr', {}), [1, [' two', null, false]], undefined] });
    expect(html.value).toBe('<hr>1 two');
  });

  it('refuses a tag name that could break out of the markup', () => {
    expect(() => jsx('p onclick=x', { children: 'x' })).toThrow('cannot render the element p onclick=x');
  });

  it('calls a component with its props and children already rendered, and trusts the HTML it returns', () => {
    const Callout = ({ kind, children }: { kind?: unknown; children: string }) => `<aside data-kind="${String(kind)}">${children}</aside>`;
    const html = jsx(Callout as never, { kind: 'tip', children: ['Mind the ', jsx('code', { children: '<gap>' })] });
    expect(html.value).toBe('<aside data-kind="tip">Mind the <code>&lt;gap&gt;</code></aside>');
  });

  it('accepts a component result as Html, nothing, or a list', () => {
    expect(componentResult(null).value).toBe('');
    expect(componentResult(new Html('<b>x</b>')).value).toBe('<b>x</b>');
    expect(componentResult(['<i>a</i>', undefined, new Html('<i>b</i>')]).value).toBe('<i>a</i><i>b</i>');
  });
});
