// Every value the pages write into HTML or into their JSON configuration goes through these two functions.
import { escapeHtml, jsonForScript } from '../../runtime/docs/escape-html';

describe('escapeHtml', () => {
  it('escapes the five characters that can open a tag, an entity or leave an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});

describe('jsonForScript', () => {
  it('never contains "<", so the text cannot end its <script> element or open a comment', () => {
    const text = jsonForScript({ title: '</script><script>alert(1)</script><!--' });
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual({ title: '</script><script>alert(1)</script><!--' });
  });

  it('escapes U+2028 and U+2029 and keeps the value', () => {
    const text = jsonForScript({ text: 'a\u2028b\u2029c' });
    expect(text).toBe('{"text":"a\\u2028b\\u2029c"}');
    expect(JSON.parse(text)).toEqual({ text: 'a\u2028b\u2029c' });
  });
});
